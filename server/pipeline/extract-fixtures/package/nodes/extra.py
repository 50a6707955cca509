from .base import ImageNode


class Extra(ImageNode):
    CATEGORY = "demo/extra"


class Extra2(Extra):
    EXPERIMENTAL = True
