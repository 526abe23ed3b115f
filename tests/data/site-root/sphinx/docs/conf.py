project = "site"
extensions = ["myst_parser"]
