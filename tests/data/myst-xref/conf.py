# A small MyST site whose pages refer to each other with {ref}, {doc} and {any} roles without a
# title: recorded with Sphinx by scripts/record_myst_xref.py (tests/data/myst-xref.shown.json).
project = "xref"
extensions = ["myst_parser"]
exclude_patterns = ["_build"]
