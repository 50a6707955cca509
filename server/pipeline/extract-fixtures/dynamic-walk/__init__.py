# Look-alike: walks modules/ and imports each file by its dotted path.
import importlib
import os

NODE_CLASS_MAPPINGS = {}
NODE_DISPLAY_NAME_MAPPINGS = {}

root = os.path.dirname(__file__)
for dirpath, dirnames, filenames in os.walk(os.path.join(root, "modules")):
    for filename in filenames:
        if not filename.endswith(".py") or filename == "__init__.py":
            continue
        relative = os.path.relpath(os.path.join(dirpath, filename), root)
        dotted = relative[:-3].replace(os.sep, ".")
        module = importlib.import_module(f"{__name__}.{dotted}")
        NODE_CLASS_MAPPINGS = {**NODE_CLASS_MAPPINGS, **getattr(module, "NODE_CLASS_MAPPINGS", {})}
