class ImageNode:
    RETURN_TYPES = ("IMAGE",)
    FUNCTION = "run"
    CATEGORY = "demo/image"

    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"image": ("IMAGE",)}}
