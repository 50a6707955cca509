MODES = ["fast", "accurate"]
MAX_SIZE = 8192
PREFIX = "demo"
