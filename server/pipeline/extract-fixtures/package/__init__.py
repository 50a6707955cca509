# Mappings merged from several modules, in the ways real packs do it.
from .nodes.image import NODE_CLASS_MAPPINGS as IMAGE_NODES, NODE_DISPLAY_NAME_MAPPINGS as IMAGE_NAMES
from .nodes import text
from . import nodes

try:
    from .nodes.extra import Extra
except ImportError:
    Extra = None

NODE_CLASS_MAPPINGS = {}
NODE_CLASS_MAPPINGS.update(IMAGE_NODES)
NODE_CLASS_MAPPINGS.update(text.NODE_CLASS_MAPPINGS)
NODE_CLASS_MAPPINGS = {**NODE_CLASS_MAPPINGS, **nodes.latent.LATENT_NODES}
NODE_CLASS_MAPPINGS["Extra"] = Extra
NODE_CLASS_MAPPINGS |= {"Extra2": nodes.extra.Extra2}

NODE_DISPLAY_NAME_MAPPINGS = dict(IMAGE_NAMES, **text.NODE_DISPLAY_NAME_MAPPINGS)
NODE_DISPLAY_NAME_MAPPINGS = NODE_DISPLAY_NAME_MAPPINGS | {"Extra": "Extra Node"}

WEB_DIRECTORY = "./js"
__all__ = ["NODE_CLASS_MAPPINGS", "NODE_DISPLAY_NAME_MAPPINGS", "WEB_DIRECTORY"]
