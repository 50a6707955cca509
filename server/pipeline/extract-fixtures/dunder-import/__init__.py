# Look-alike: __import__ with a fromlist over a literal module list.
NODE_CLASS_MAPPINGS = {}

for name in ["noise", "seed"]:
    module = __import__("nodes." + name, globals(), locals(), ["NODE_CLASS_MAPPINGS"], 1)
    NODE_CLASS_MAPPINGS.update(module.NODE_CLASS_MAPPINGS)

package = __import__(__name__ + ".nodes.noise")
