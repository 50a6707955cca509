CATEGORY = "pack/utils"
