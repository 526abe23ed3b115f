project = "design"
extensions = ["myst_parser", "sphinx_design"]
myst_enable_extensions = ["colon_fence", "attrs_inline", "attrs_block"]
html_theme = "basic"
numfig = True
