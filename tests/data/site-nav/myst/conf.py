# A small Sphinx site of MyST pages (tests/test_site_navigation.py): toctrees from index.md, a page
# in no toctree, an `orphan: true` page, exclude_patterns, sphinx-reredirects' redirects, and the
# blocks Sphinx runs but never shows; `{only}` blocks, raw HTML and substitutions (an `internal`
# tag added only when the environment asks for it, as sites keep staff notes off the public build;
# a substitution whose value is code, which docschat shows as nothing; the markers of conf.py are
# looked for on every page). Built by
# scripts/record_myst_site.py (Sphinx, myst-parser, sphinx-reredirects), which records what each
# built page shows.
import os

project = "Acme"
release = "2.4"
extensions = ["myst_parser", "sphinx.ext.doctest", "sphinx_reredirects"]
myst_enable_extensions = ["colon_fence", "substitution"]
myst_substitutions = {
    "product": "Acme Cloud (marker-myst-conf-product)",
    "region": "marker-myst-conf-region",
    "notice": "**Heads up:** marker-myst-conf-notice <!-- marker-myst-conf-notice-comment -->",
    "outer": "via {{ inner }}",
    "inner": "marker-myst-conf-nested",
    "version": release,
}
exclude_patterns = ["_build", "README.md", "drafts"]
redirects = {
    "old/setup": "../guides/install.html",
}
html_theme = "alabaster"

if os.environ.get("ACME_INTERNAL"):
    tags.add("internal")  # noqa: F821 (Sphinx gives conf.py its tags)
