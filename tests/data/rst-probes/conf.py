# reStructuredText probes (scripts/record_rst_probes.py builds them with each theme in THEMES).
project = "rst probes"
release = "1.0"
extensions = ["sphinx.ext.todo", "sphinx.ext.ifconfig", "sphinx.ext.doctest"]
tags.add("beta")  # noqa: F821 - conf.py's `tags` is Sphinx's
html_theme = "alabaster"
exclude_patterns = ["_build"]
