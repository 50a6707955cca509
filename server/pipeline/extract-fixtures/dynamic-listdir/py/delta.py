from ._shared import CATEGORY


class DeltaNode:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"value": ("STRING", {"default": "delta"})}}

    RETURN_TYPES = ("STRING",)
    FUNCTION = "run"
    CATEGORY = CATEGORY

    def run(self, value):
        return (value,)


NODE_CLASS_MAPPINGS = {"Delta": DeltaNode}
NODE_DISPLAY_NAME_MAPPINGS = {"Delta": "Delta Node"}
