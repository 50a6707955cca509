from .base import ImageNode


class Invert(ImageNode):
    pass


class Flip(ImageNode):
    @classmethod
    def INPUT_TYPES(cls):
        inputs = super().INPUT_TYPES()
        inputs["required"]["axis"] = (["horizontal", "vertical"],)
        return inputs


NODE_CLASS_MAPPINGS = {"Invert": Invert, "Flip": Flip}
NODE_DISPLAY_NAME_MAPPINGS = {"Invert": "Invert Image"}
