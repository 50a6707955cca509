class LegacyNode:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {}}

    RETURN_TYPES = ()
    FUNCTION = "run"


NODE_CLASS_MAPPINGS = {"LegacyNode": LegacyNode}
