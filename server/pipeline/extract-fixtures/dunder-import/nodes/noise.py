class AddNoise:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"latent": ("LATENT",), "strength": ("FLOAT", {"default": 0.5})}}

    RETURN_TYPES = ("LATENT",)
    FUNCTION = "add"


NODE_CLASS_MAPPINGS = {"AddNoise": AddNoise}
