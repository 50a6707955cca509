import folder_paths

from .constants import MODES, MAX_SIZE, PREFIX
from .loaders import CheckpointLoader, TunedLoader


class AnyType(str):
    def __ne__(self, other):
        return False


any_type = AnyType("*")


class Switch:
    DEFAULTS = {"default": 0.5, "min": -1.5e-3, "max": 1e20, "step": 0.0001}

    @classmethod
    def INPUT_TYPES(cls):
        options = dict(cls.DEFAULTS)
        options["round"] = False
        return {
            "required": {
                "mode": (MODES,),
                "value": ("FLOAT", options),
                "size": ("INT", {"default": MAX_SIZE // 2, "max": MAX_SIZE, "seed_max": 2**64 - 1}),
                "anything": (any_type, {}),
                "label": ("STRING", {"default": f"{PREFIX}-switch"}),
                "files": (sorted(folder_paths.get_filename_list("loras")) + ["None"],),
            },
            "hidden": {"unique_id": "UNIQUE_ID"},
        }

    RETURN_TYPES = (any_type, "INT")
    RETURN_NAMES = ("value", "size")
    OUTPUT_IS_LIST = (False, True)
    FUNCTION = "switch"
    CATEGORY = PREFIX + "/logic"


NODE_CLASS_MAPPINGS = {
    "Switch": Switch,
    "CheckpointLoader": CheckpointLoader,
    "TunedLoader": TunedLoader,
}
