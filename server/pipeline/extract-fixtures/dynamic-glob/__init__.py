# Look-alike: globs its nodes/ folder and loads each file by location.
import glob
import importlib.util
import os
import sys

NODE_CLASS_MAPPINGS = {}
NODE_DISPLAY_NAME_MAPPINGS = {}

nodes_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nodes")
for file in glob.glob(os.path.join(nodes_dir, "*.py"), recursive=False):
    name = os.path.splitext(os.path.basename(file))[0]
    spec = importlib.util.spec_from_file_location(name, file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    if getattr(module, "NODE_CLASS_MAPPINGS", None) is not None:
        for key, cls in module.NODE_CLASS_MAPPINGS.items():
            NODE_CLASS_MAPPINGS[key + "|glob"] = cls
