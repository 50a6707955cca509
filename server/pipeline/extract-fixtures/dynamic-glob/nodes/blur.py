class Blur:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"image": ("IMAGE",), "radius": ("INT", {"default": 3})}}

    RETURN_TYPES = ("IMAGE",)
    FUNCTION = "blur"
    CATEGORY = "image"


NODE_CLASS_MAPPINGS = {"Blur": Blur}
