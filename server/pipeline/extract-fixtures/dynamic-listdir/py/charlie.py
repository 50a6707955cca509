from ._shared import CATEGORY


class CharlieNode:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"value": ("STRING", {"default": "charlie"})}}

    RETURN_TYPES = ("STRING",)
    FUNCTION = "run"
    CATEGORY = CATEGORY

    def run(self, value):
        return (value,)


NODE_CLASS_MAPPINGS = {"Charlie": CharlieNode}
NODE_DISPLAY_NAME_MAPPINGS = {"Charlie": "Charlie Node"}
