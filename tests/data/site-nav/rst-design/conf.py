# Directives of packages other than Sphinx's (scripts/record_rst_site.py records what it shows): the
# markup each class refuses shows nothing (app/corpus/sphinx_directive_specs.json).
project = "rst design fixture"
extensions = ["sphinx_design", "sphinx_tabs.tabs", "sphinx_inline_tabs"]
html_theme = "alabaster"
exclude_patterns = ["_build"]
