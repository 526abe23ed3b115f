# A Sphinx site on Canonical's starter pack, as LXD's docs (recorded by scripts/record_myst_site.py):
# canonical_sphinx switches on MyST's substitution extension, and conf.py loads the substitutions
# from YAML files by code; a committed fallback inventory for intersphinx; sphinx-youtube-links.
import os

import yaml

project = "canonical"
html_theme = "furo"
extensions = [
    "canonical_sphinx",
    "sphinx_youtube_links",
    "sphinx.ext.intersphinx",
    "myst_parser",
]

# substitution, deflist, and linkify are always enabled by default
myst_enable_extensions = {
    "attrs_block",
}

myst_substitutions = {"marker_literal": "marker-sub-literal"}
if os.path.exists("./substitutions.yaml"):
    with open("./substitutions.yaml", "r") as fd:
        myst_substitutions.update(yaml.safe_load(fd.read()))
if os.path.exists("./related_topics.yaml"):
    with open("./related_topics.yaml", "r") as fd:
        myst_substitutions.update(yaml.safe_load(fd.read()))

# The remote inventory is unreachable (.invalid): Sphinx reads the committed fallback.
intersphinx_mapping = {
    "snap": ("https://snap.example.invalid/docs/", (None, ".sphinx/intersphinx/snap-objects.inv")),
}
