from ._shared import CATEGORY


class KiloNode:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"value": ("STRING", {"default": "kilo"})}}

    RETURN_TYPES = ("STRING",)
    FUNCTION = "run"
    CATEGORY = CATEGORY

    def run(self, value):
        return (value,)


NODE_CLASS_MAPPINGS = {"Kilo": KiloNode}
NODE_DISPLAY_NAME_MAPPINGS = {"Kilo": "Kilo Node"}
