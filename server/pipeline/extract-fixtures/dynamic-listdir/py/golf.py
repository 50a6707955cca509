from ._shared import CATEGORY


class GolfNode:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"value": ("STRING", {"default": "golf"})}}

    RETURN_TYPES = ("STRING",)
    FUNCTION = "run"
    CATEGORY = CATEGORY

    def run(self, value):
        return (value,)


NODE_CLASS_MAPPINGS = {"Golf": GolfNode}
NODE_DISPLAY_NAME_MAPPINGS = {"Golf": "Golf Node"}
