from .nodes import Resize, Crop, Pad, NAMED


class Rotate:
    NAME = "Rotate (Demo)"
    TITLE = "Rotate"

    @classmethod
    def INPUT_TYPES(s):
        return {"required": {"image": ("IMAGE",), "angle": ("FLOAT", {"default": 0.0})}}

    RETURN_TYPES = ("IMAGE",)
    FUNCTION = "rotate"


NODES = (Resize, Crop)

NODE_CLASS_MAPPINGS = {c.__name__: c for c in NODES}
NODE_CLASS_MAPPINGS.update({cls.NAME: cls for cls in [Rotate]})
NODE_CLASS_MAPPINGS.update({name: cls for name, cls in zip(["PadImage"], [Pad])})
NODE_CLASS_MAPPINGS.update({k: v for k, v in NAMED.items()})

NODE_DISPLAY_NAME_MAPPINGS = {c.__name__: c.__name__.upper() for c in NODES}
NODE_DISPLAY_NAME_MAPPINGS[Rotate.NAME] = Rotate.TITLE
