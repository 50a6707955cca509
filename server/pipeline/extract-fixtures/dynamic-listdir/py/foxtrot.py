from ._shared import CATEGORY


class FoxtrotNode:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"value": ("STRING", {"default": "foxtrot"})}}

    RETURN_TYPES = ("STRING",)
    FUNCTION = "run"
    CATEGORY = CATEGORY

    def run(self, value):
        return (value,)


NODE_CLASS_MAPPINGS = {"Foxtrot": FoxtrotNode}
NODE_DISPLAY_NAME_MAPPINGS = {"Foxtrot": "Foxtrot Node"}
