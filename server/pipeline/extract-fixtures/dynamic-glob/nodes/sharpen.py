class Sharpen:
    RETURN_TYPES = ("IMAGE",)
    FUNCTION = "sharpen"
    CATEGORY = "image"

    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"image": ("IMAGE",)}}


NODE_CLASS_MAPPINGS = {"Sharpen": Sharpen}
