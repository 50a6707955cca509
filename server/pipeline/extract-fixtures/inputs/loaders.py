import folder_paths
from .constants import PREFIX


class CheckpointLoader:
    @classmethod
    def INPUT_TYPES(s):
        return {"required": {"ckpt_name": (folder_paths.get_filename_list("checkpoints"),)}}

    RETURN_TYPES = ("MODEL", "CLIP", "VAE")
    FUNCTION = "load"
    CATEGORY = PREFIX + "/loaders"


class TunedLoader(CheckpointLoader):
    RETURN_NAMES = ("model", "clip", "vae")
