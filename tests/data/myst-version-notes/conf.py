extensions = ["myst_parser"]
myst_enable_extensions = ["colon_fence"]
