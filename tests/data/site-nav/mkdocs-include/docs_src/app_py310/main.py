print("folder variant, preferred")  # marker-inc-folder-py310
