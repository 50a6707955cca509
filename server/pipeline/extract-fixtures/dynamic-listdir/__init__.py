# Look-alike: lists its own py/ folder, imports every module and suffixes the keys.
import importlib
import os

NODE_CLASS_MAPPINGS = {}
NODE_DISPLAY_NAME_MAPPINGS = {}

here = os.path.dirname(os.path.realpath(__file__))
for filename in os.listdir(os.path.join(here, "py")):
    if not filename.endswith(".py") or filename.startswith("_"):
        continue
    name = filename[:-3]
    module = importlib.import_module(f".py.{name}", __name__)
    if hasattr(module, "NODE_CLASS_MAPPINGS"):
        NODE_CLASS_MAPPINGS.update({f"{k}|pack": v for k, v in module.NODE_CLASS_MAPPINGS.items()})
    if hasattr(module, "NODE_DISPLAY_NAME_MAPPINGS"):
        for key, title in module.NODE_DISPLAY_NAME_MAPPINGS.items():
            NODE_DISPLAY_NAME_MAPPINGS[key + "|pack"] = title + " (pack)"

WEB_DIRECTORY = "./web"
__all__ = ["NODE_CLASS_MAPPINGS", "NODE_DISPLAY_NAME_MAPPINGS", "WEB_DIRECTORY"]
