class Crop:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"image": ("IMAGE",), "width": ("INT", {"default": 512})}}

    RETURN_TYPES = ("IMAGE",)
    FUNCTION = "crop"


NODE_CLASS_MAPPINGS = {"Crop (walk)": Crop}
