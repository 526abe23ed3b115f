# A Sphinx site in a repository's docs/ folder whose MyST pages include files of the repository
# outside it (tests/test_myst_include.py), as structlog's docs include ../README.md: a relative
# path from the page's folder, a `/` path from this folder, and an include inside an included file
# (relative to the page, or to the included file?). Built by scripts/record_myst_site.py.
project = "Widget"
extensions = ["myst_parser"]
exclude_patterns = ["_build", "part.md", "shared.md"]
html_theme = "alabaster"
