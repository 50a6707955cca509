class EdgeDetect:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"image": ("IMAGE",)}}

    RETURN_TYPES = ("IMAGE",)
    FUNCTION = "detect"


NODE_CLASS_MAPPINGS = {"EdgeDetect": EdgeDetect}
