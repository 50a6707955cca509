from ._shared import CATEGORY


class LimaNode:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"value": ("STRING", {"default": "lima"})}}

    RETURN_TYPES = ("STRING",)
    FUNCTION = "run"
    CATEGORY = CATEGORY

    def run(self, value):
        return (value,)


NODE_CLASS_MAPPINGS = {"Lima": LimaNode}
NODE_DISPLAY_NAME_MAPPINGS = {"Lima": "Lima Node"}
