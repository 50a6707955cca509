"""A one-file node pack: classes and mappings side by side."""
import torch


class ImageBlend:
    @classmethod
    def INPUT_TYPES(s):
        return {
            "required": {
                "image": ("IMAGE",),
                "strength": ("FLOAT", {"default": 1.0, "min": 0, "max": 2, "step": 0.01}),
            },
            "optional": {},
        }

    RETURN_TYPES = ("IMAGE",)
    RETURN_NAMES = ("image",)
    FUNCTION = "blend"
    CATEGORY = "image/postprocessing"
    DESCRIPTION = "Blends an image " "with itself."

    def blend(self, image, strength):
        return (image * strength,)


class SaveText:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"text": ("STRING", {"multiline": True, "default": ""})}}

    RETURN_TYPES = ()
    OUTPUT_NODE = True
    FUNCTION = "save"
    CATEGORY = "utils"
    DEPRECATED = True

    def save(self, text):
        return {}


NODE_CLASS_MAPPINGS = {
    "ImageBlend": ImageBlend,
    "SaveText": SaveText,
}

NODE_DISPLAY_NAME_MAPPINGS = {
    "ImageBlend": "Image Blend",
}
