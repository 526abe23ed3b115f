# A buildable Sphinx site (scripts/record_myst_literalinclude.py builds it with the real Sphinx):
# MyST pages whose `{literalinclude}`s show files of the repository.
project = "Literal"
extensions = ["myst_parser"]
exclude_patterns = ["_build"]
