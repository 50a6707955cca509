from ._shared import CATEGORY


class EchoNode:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"value": ("STRING", {"default": "echo"})}}

    RETURN_TYPES = ("STRING",)
    FUNCTION = "run"
    CATEGORY = CATEGORY

    def run(self, value):
        return (value,)


NODE_CLASS_MAPPINGS = {"Echo": EchoNode}
NODE_DISPLAY_NAME_MAPPINGS = {"Echo": "Echo Node"}
