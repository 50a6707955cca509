class Concat:
    @classmethod
    def INPUT_TYPES(s):
        return {"required": {"a": ("STRING",), "b": ("STRING",)}}

    RETURN_TYPES = ("STRING",)
    FUNCTION = "concat"
    CATEGORY = "demo/text"


NODE_CLASS_MAPPINGS = {"Concat": Concat}
NODE_DISPLAY_NAME_MAPPINGS = {"Concat": "Concatenate"}
