class _Base:
    RETURN_TYPES = ("IMAGE",)
    FUNCTION = "run"

    @classmethod
    def INPUT_TYPES(s):
        return {"required": {"image": ("IMAGE",)}}


class Resize(_Base):
    pass


class Crop(_Base):
    pass


class Pad(_Base):
    pass


class Blur(_Base):
    pass


NAMED = {"Blur": Blur}
