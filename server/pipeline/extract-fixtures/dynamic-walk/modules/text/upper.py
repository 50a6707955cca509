class Upper:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"text": ("STRING",)}}

    RETURN_TYPES = ("STRING",)
    FUNCTION = "upper"


NODE_CLASS_MAPPINGS = {"Upper (walk)": Upper}
