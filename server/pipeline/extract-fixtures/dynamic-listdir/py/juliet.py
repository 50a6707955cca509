from ._shared import CATEGORY


class JulietNode:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"value": ("STRING", {"default": "juliet"})}}

    RETURN_TYPES = ("STRING",)
    FUNCTION = "run"
    CATEGORY = CATEGORY

    def run(self, value):
        return (value,)


NODE_CLASS_MAPPINGS = {"Juliet": JulietNode}
NODE_DISPLAY_NAME_MAPPINGS = {"Juliet": "Juliet Node"}
