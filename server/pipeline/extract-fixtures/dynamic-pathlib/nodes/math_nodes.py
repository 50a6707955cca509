from typing import Any


class AddNumbers:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"a": ("FLOAT",), "b": ("FLOAT",)}}

    RETURN_TYPES = ("FLOAT",)
    FUNCTION = "add"


class MultiplyNumbers(AddNumbers):
    FUNCTION = "multiply"


HELPER: Any = None
