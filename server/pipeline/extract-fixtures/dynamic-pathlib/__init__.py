# Look-alike: pathlib over its folder, then every class with INPUT_TYPES in each module.
import importlib
import inspect
from pathlib import Path

NODE_CLASS_MAPPINGS = {}

for path in sorted(Path(__file__).parent.joinpath("nodes").glob("*.py")):
    if path.stem == "__init__":
        continue
    module = importlib.import_module("." + path.stem, package=__name__ + ".nodes")
    for attribute in dir(module):
        obj = getattr(module, attribute)
        if inspect.isclass(obj) and hasattr(obj, "INPUT_TYPES"):
            NODE_CLASS_MAPPINGS[obj.__name__] = obj

for folder in (Path(__file__).parent / "nodes").iterdir():
    if folder.is_dir() and (folder / "__init__.py").exists():
        print("subpackage", folder.name)
