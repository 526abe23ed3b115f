project = "tabs"
extensions = ["myst_parser", "sphinx_tabs.tabs"]
html_theme = "basic"
