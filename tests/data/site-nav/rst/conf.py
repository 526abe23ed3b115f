# A Sphinx site of reStructuredText pages (scripts/record_rst_site.py records what it shows).
project = "rst fixture"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.todo", "myst_parser"]
html_theme = "alabaster"
exclude_patterns = ["includes/*", "_build"]
