"""Records which directive and role names a Sphinx site can use in its MyST pages, by extension and theme:
each one loaded alone into a real Sphinx application (the `html` builder, so a theme's own
extension loads too), the names it registers read from docutils' registry and Sphinx's domains.
A MyST page's directive that none of its site's extensions defines shows nothing (Sphinx warns
"Unknown directive type"); nor of a role none defines ("Unknown interpreted text role": the
`roles` part). app/corpus/sphinx_directives.py reads the file this writes.

    python -m venv /tmp/sphinx && /tmp/sphinx/bin/pip install sphinx myst-parser sphinx-design …
    /tmp/sphinx/bin/python scripts/record_sphinx_directives.py > app/corpus/sphinx_directives.json

An extension or theme that is not installed is left out (docschat then decides nothing for a site
using it); so is one whose setup fails.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import io
import json
import sys
import tempfile
from pathlib import Path

# Sphinx's own extensions, and the third-party ones and themes sites use most.
EXTENSIONS = [
    "sphinx.ext.autodoc", "sphinx.ext.autosectionlabel", "sphinx.ext.autosummary", "sphinx.ext.coverage",
    "sphinx.ext.doctest", "sphinx.ext.duration", "sphinx.ext.extlinks", "sphinx.ext.githubpages",
    "sphinx.ext.graphviz", "sphinx.ext.ifconfig", "sphinx.ext.imgconverter", "sphinx.ext.imgmath",
    "sphinx.ext.inheritance_diagram", "sphinx.ext.intersphinx", "sphinx.ext.linkcode", "sphinx.ext.mathjax",
    "sphinx.ext.napoleon", "sphinx.ext.todo", "sphinx.ext.viewcode",
    "myst_parser", "myst_nb", "sphinx_design", "sphinx_tabs.tabs", "sphinx_copybutton", "sphinxcontrib.mermaid",
    "sphinx_togglebutton", "sphinx_inline_tabs", "sphinx_autodoc_typehints", "sphinxext.opengraph",
    "sphinxcontrib.bibtex", "numpydoc", "sphinx_sitemap", "sphinx_reredirects", "sphinx_click", "nbsphinx",
    "autoapi.extension", "jupyter_sphinx", "IPython.sphinxext.ipython_directive",
    "IPython.sphinxext.ipython_console_highlighting", "matplotlib.sphinxext.plot_directive",
    "matplotlib.sphinxext.mathmpl", "sphinx_gallery.gen_gallery", "sphinx_exercise", "sphinx_proof",
    "sphinxcontrib.programoutput", "sphinxarg.ext", "sphinxcontrib.video", "notfound.extension",
    "sphinx_last_updated_by_git",
]
THEMES = ["alabaster", "basic", "classic", "nature", "sphinxdoc", "scrolls", "agogo", "traditional", "haiku",
          "pyramid", "bizstyle", "epub", "furo", "sphinx_rtd_theme", "pydata_sphinx_theme", "sphinx_book_theme"]
PACKAGES = ["sphinx", "docutils", "myst-parser", "myst-nb", "sphinx-design", "sphinx-tabs", "sphinxcontrib-mermaid",
            "sphinx-togglebutton", "sphinx-inline-tabs", "sphinxcontrib-bibtex", "numpydoc", "sphinx-click", "nbsphinx",
            "sphinx-autoapi", "jupyter-sphinx", "ipython", "matplotlib", "sphinx-gallery", "sphinx-exercise",
            "sphinx-proof", "sphinxcontrib-programoutput", "sphinx-argparse", "sphinxcontrib-video",
            "sphinx-notfound-page", "sphinx-last-updated-by-git", "furo", "sphinx-rtd-theme", "pydata-sphinx-theme", "sphinx-book-theme"]


def directive_names(extensions: list[str], theme: str) -> set[str] | None:
    """The directive names a MyST page of a site with `extensions` and `theme` resolves (lower
    case; domain directives both as `domain:name` and bare, as Sphinx tries the default and the
    `std` domain for a bare name); None when Sphinx cannot set the site up."""
    found = names_of(extensions, theme)
    return None if found is None else found[0]


def role_names(extensions: list[str], theme: str) -> set[str] | None:
    """The role names such a page resolves (lower case): docutils' and those Sphinx's `add_role`
    registers, every domain's as `domain:name`, the `py` (default) and `std` domains' bare too, as
    Sphinx's lookup_domain_element tries them; None when Sphinx cannot set the site up."""
    found = names_of(extensions, theme)
    return None if found is None else found[1]


def names_of(extensions: list[str], theme: str) -> tuple[set[str], set[str]] | None:
    from docutils.parsers.rst import directives, roles
    from docutils.parsers.rst.languages import en
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace

    with tempfile.TemporaryDirectory() as folder, docutils_namespace():
        root = Path(folder)
        (root / "conf.py").write_text(f"extensions = {extensions!r}\nhtml_theme = {theme!r}\n")
        (root / "index.rst").write_text("T\n=\n")
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                app = Sphinx(str(root), str(root), str(root / "_build"), str(root / "_doctrees"), "html",
                             status=None, warning=None, freshenv=True)
        except Exception:  # noqa: BLE001 (not installed, or its setup refuses this Sphinx: any error)
            return None
        names = set(directives._directives) | set(directives._directive_registry) | set(en.directives)
        role_names = set(roles._roles) | set(roles._role_registry) | set(en.roles)
        for domain in app.env.domains.sorted():
            for name in domain.directives:
                names |= {name, f"{domain.name}:{name}"}
            for name in domain.roles:
                role_names |= {f"{domain.name}:{name}", *([name] if domain.name in ("py", "std") else [])}
        return {name.lower() for name in names}, {name.lower() for name in role_names}


def main() -> None:
    base = directive_names([], "alabaster")
    if base is None:
        sys.exit("Sphinx cannot set up a bare site")
    extensions = {ext: sorted(found - base) for ext in EXTENSIONS if (found := directive_names([ext], "alabaster")) is not None}
    themes = {theme: sorted(found - base) for theme in THEMES if (found := directive_names([], theme)) is not None}
    versions = {}
    for package in PACKAGES:
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            versions[package] = importlib.metadata.version(package)
    base_roles = role_names([], "alabaster") or set()
    roles = {"base": sorted(base_roles),
             "extensions": {ext: sorted(found - base_roles) for ext in EXTENSIONS if (found := role_names([ext], "alabaster")) is not None},
             "themes": {theme: sorted(found - base_roles) for theme in THEMES if (found := role_names([], theme)) is not None}}
    json.dump({"recorded_with": versions, "base": sorted(base), "extensions": extensions, "themes": themes, "roles": roles},
              sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
