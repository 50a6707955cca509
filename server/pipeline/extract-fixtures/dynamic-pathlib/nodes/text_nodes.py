class JoinText:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"a": ("STRING",), "b": ("STRING",)}}

    RETURN_TYPES = ("STRING",)
    FUNCTION = "join"


class NotANode:
    pass
