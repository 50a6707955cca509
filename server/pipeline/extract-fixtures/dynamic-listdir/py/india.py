from ._shared import CATEGORY


class IndiaNode:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"value": ("STRING", {"default": "india"})}}

    RETURN_TYPES = ("STRING",)
    FUNCTION = "run"
    CATEGORY = CATEGORY

    def run(self, value):
        return (value,)


NODE_CLASS_MAPPINGS = {"India": IndiaNode}
NODE_DISPLAY_NAME_MAPPINGS = {"India": "India Node"}
