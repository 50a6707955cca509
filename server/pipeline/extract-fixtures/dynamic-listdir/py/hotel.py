from ._shared import CATEGORY


class HotelNode:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"value": ("STRING", {"default": "hotel"})}}

    RETURN_TYPES = ("STRING",)
    FUNCTION = "run"
    CATEGORY = CATEGORY

    def run(self, value):
        return (value,)


NODE_CLASS_MAPPINGS = {"Hotel": HotelNode}
NODE_DISPLAY_NAME_MAPPINGS = {"Hotel": "Hotel Node"}
