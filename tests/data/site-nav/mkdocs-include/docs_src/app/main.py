print("folder variant, other")  # marker-inc-folder-plain
