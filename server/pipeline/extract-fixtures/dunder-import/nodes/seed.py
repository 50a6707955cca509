class RandomSeed:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {}}

    RETURN_TYPES = ("INT",)
    FUNCTION = "seed"


NODE_CLASS_MAPPINGS = {"RandomSeed": RandomSeed}
