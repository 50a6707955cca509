from ._shared import CATEGORY


class MikeNode:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"value": ("STRING", {"default": "mike"})}}

    RETURN_TYPES = ("STRING",)
    FUNCTION = "run"
    CATEGORY = CATEGORY

    def run(self, value):
        return (value,)


NODE_CLASS_MAPPINGS = {"Mike": MikeNode}
NODE_DISPLAY_NAME_MAPPINGS = {"Mike": "Mike Node"}
