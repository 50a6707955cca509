from ._shared import CATEGORY


class AlphaNode:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"value": ("STRING", {"default": "alpha"})}}

    RETURN_TYPES = ("STRING",)
    FUNCTION = "run"
    CATEGORY = CATEGORY

    def run(self, value):
        return (value,)


NODE_CLASS_MAPPINGS = {"Alpha": AlphaNode}
NODE_DISPLAY_NAME_MAPPINGS = {"Alpha": "Alpha Node"}
