# Look-alike: optional modules behind try/except ImportError.
NODE_CLASS_MAPPINGS = {}

try:
    from .nodes_v2 import NODE_CLASS_MAPPINGS as V2
except ImportError:
    from .nodes_legacy import NODE_CLASS_MAPPINGS as V2
NODE_CLASS_MAPPINGS.update(V2)

try:
    import cv2  # third-party: present or not, the package's import below is followed
    from .vision import NODE_CLASS_MAPPINGS as VISION

    NODE_CLASS_MAPPINGS.update(VISION)
except ImportError:
    print("vision nodes need opencv")

if __name__ == "__main__":
    from . import selftest
