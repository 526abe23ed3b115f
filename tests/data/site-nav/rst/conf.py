# A Sphinx site of reStructuredText pages (scripts/record_rst_site.py records what it shows).
project = "rst fixture"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.todo", "sphinx.ext.extlinks", "myst_parser"]
extlinks = {
    "issue": ("https://github.com/example/fixture/issues/%s", "#%s"),
    "pr": ("https://github.com/example/fixture/pull/%s", "PR %s"),
    "source": ("https://github.com/example/fixture/blob/main/%s", None),
}
html_theme = "alabaster"
exclude_patterns = ["includes/*", "_build"]
