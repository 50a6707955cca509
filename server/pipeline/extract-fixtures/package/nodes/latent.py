import sys
sys.path.append("..")  # noise a static reader must ignore


class EmptyLatent:
    @classmethod
    def INPUT_TYPES(s):
        return {"required": {"width": ("INT", {"default": 512, "min": 16, "max": 8192, "step": 8})}}

    RETURN_TYPES = ("LATENT",)
    FUNCTION = "generate"
    CATEGORY = "demo/latent"


LATENT_NODES = {"EmptyLatent": EmptyLatent}
