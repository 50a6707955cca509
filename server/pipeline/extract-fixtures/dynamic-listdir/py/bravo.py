from ._shared import CATEGORY


class BravoNode:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"value": ("STRING", {"default": "bravo"})}}

    RETURN_TYPES = ("STRING",)
    FUNCTION = "run"
    CATEGORY = CATEGORY

    def run(self, value):
        return (value,)


NODE_CLASS_MAPPINGS = {"Bravo": BravoNode}
NODE_DISPLAY_NAME_MAPPINGS = {"Bravo": "Bravo Node"}
