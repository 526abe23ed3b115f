project = "config options"
extensions = ["myst_parser", "sphinx_config_options"]
html_theme = "basic"
