# A small Sphinx site of MyST pages (tests/test_site_navigation.py): toctrees from index.md, a page
# in no toctree, an `orphan: true` page, exclude_patterns, sphinx-reredirects' redirects, and the
# blocks Sphinx runs but never shows. Built by scripts/record_myst_site.py (Sphinx, myst-parser,
# sphinx-reredirects), which records what each built page shows.
project = "Acme"
extensions = ["myst_parser", "sphinx.ext.doctest", "sphinx_reredirects"]
myst_enable_extensions = ["colon_fence"]
exclude_patterns = ["_build", "README.md", "drafts"]
redirects = {
    "old/setup": "../guides/install.html",
}
html_theme = "alabaster"
