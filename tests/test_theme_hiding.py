"""A theme's own stylesheet hides classes a page may use (`<div class="d-none">` on a
pydata-sphinx-theme site shows nothing): the classes scripts/record_theme_hiding.py recorded in
Chromium (app/corpus/theme_hiding.json) hide a page's text on a site of that theme, as the site's
own stylesheet would; a theme with no record changes nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.compose import compose_files
from app.corpus.sources import Source
from app.corpus.theme_hiding import DESKTOP, _recorded, theme_css

_PUBLIC = Source(name="s", repo=Path("."), dir="", audiences=("public",))


def _indexed(files: dict[str, str], page: str) -> str:
    result = compose_files(files, Settings(), _PUBLIC)
    assert [p.path for p in result.pages] == [page], (result.warnings, result.excluded)
    return "\n".join(chunk.text for chunk in result.chunks)


_MYST = "extensions = ['myst_parser']\nmyst_enable_extensions = ['colon_fence']\n"


@pytest.mark.parametrize("config, page, text", [
    # Raw HTML in a MyST page, and a directive's `:class:` (Bootstrap's `d-none`, `invisible`).
    ({"conf.py": _MYST + "html_theme = 'pydata_sphinx_theme'\n"}, "index.md",
     '<div class="d-none">THEMEWORDONE</div>\n\n<p class="invisible">THEMEWORDTWO</p>\n\n'
     ':::{note}\n:class: d-none\nTHEMEWORDTHREE\n:::\n\n<div class="text-uppercase">shown by class</div>\n'),
    # sphinx-book-theme: `onlyprint`, and pydata's Bootstrap it builds on; `d-lg-none` hides at a desktop width.
    ({"conf.py": _MYST + "html_theme = \"sphinx_book_theme\"\n"}, "index.md",
     '<div class="onlyprint">THEMEWORDONE</div>\n\n<span class="d-lg-none">THEMEWORDTWO</span>\n\n'
     '<div class="d-print-none">shown by class</div>\n'),
    # A Jupyter Book: jupyter-book builds with sphinx_book_theme, unless `sphinx: config:` names another.
    ({"_config.yml": "title: B\n", "_toc.yml": "format: jb-book\nroot: index\n"}, "index.md",
     '<div class="onlyprint">THEMEWORDONE</div>\n\n<div class="no-toc">shown by class</div>\n'),
    ({"_config.yml": "title: B\nsphinx:\n  config:\n    html_theme: furo\n", "_toc.yml": "format: jb-book\nroot: index\n"},
     "index.md", '<div class="no-toc">THEMEWORDONE</div>\n\n<div class="onlyprint">shown by class</div>\n'),
    # sphinx_rtd_theme: `wy-nav-top` hides on a desktop; `tablet-hide` only on a tablet (shown).
    ({"conf.py": _MYST + "html_theme = 'sphinx_rtd_theme'\n"}, "index.md",
     '<div class="wy-nav-top">THEMEWORDONE</div>\n\n<div class="tablet-hide">shown by class</div>\n'),
    # furo: `only-dark` (Chromium's default scheme is light), `no-toc`.
    ({"conf.py": _MYST + "html_theme = 'furo'\n"}, "index.md",
     '<div class="only-dark">THEMEWORDONE</div>\n\n<div class="no-toc">THEMEWORDTWO</div>\n\n'
     '<div class="only-light">shown by class</div>\n'),
    # MkDocs' own theme (none named) is Bootstrap: attr_list's `{: .d-none }` and raw HTML.
    ({"mkdocs.yml": "site_name: A\nmarkdown_extensions:\n  - attr_list\n  - md_in_html\n"}, "docs/a.md",
     'THEMEWORDONE paragraph\n{: .d-none }\n\n<div class="collapse">THEMEWORDTWO</div>\n\n'
     'shown paragraph by class\n{: .text-center }\n'),
    ({"mkdocs.yml": "site_name: A\ntheme:\n  name: readthedocs\n"}, "docs/a.md",
     '<div class="wy-nav-top">THEMEWORDONE</div>\n\n<div class="tablet-hide">shown by class</div>\n'),
    ({"mkdocs.yml": "site_name: A\ntheme: material\nmarkdown_extensions:\n  - attr_list\n"}, "docs/a.md",
     'THEMEWORDONE paragraph\n{: .md-toggle }\n\n<div class="md-typeset">shown by class</div>\n'),
    # Docusaurus' classic theme: Infima's `navbar-sidebar` (`visibility: hidden`).
    ({"docusaurus.config.js": "module.exports = {presets: [['classic', {}]]};"}, "docs/a.mdx",
     '<div className="navbar-sidebar">THEMEWORDONE</div>\n\n<div className="navbar">shown by class</div>\n'),
    # Mintlify: @mintlify/components' `xl:hidden` (its `hidden` the reader knows already).
    ({"docs.json": '{"name": "P", "navigation": {"pages": ["a"]}}'}, "a.mdx",
     '<div className="xl:hidden">THEMEWORDONE</div>\n\n<div className="md:hidden">shown by class</div>\n\n'
     '<div className="hidden md:block">shown on a desktop</div>\n'),
])
def test_a_class_the_sites_theme_hides_hides_the_pages_text(config: dict[str, str], page: str, text: str) -> None:
    """Before, each THEMEWORD was indexed: only the site's own stylesheets were applied."""
    indexed = _indexed({**config, page: "# A\n\nShown text.\n\n" + text}, page)
    shown = re.findall(r"shown[^<\n]*", text)
    assert shown and all(words in indexed for words in ["Shown text.", *shown]), indexed
    assert "THEMEWORD" not in indexed, indexed


@pytest.mark.parametrize("config, page", [
    ({"conf.py": _MYST + "html_theme = 'my_own_theme'\n"}, "index.md"),  # no record
    ({"conf.py": _MYST + "import os\nhtml_theme = os.environ['THEME']\n"}, "index.md"),  # named by code
    ({"conf.py": _MYST + "html_theme = 'furo'\nif True:\n    html_theme = 'other'\n"}, "index.md"),  # changed by code
    ({"mkdocs.yml": "site_name: A\ntheme:\n  custom_dir: mine/\n"}, "docs/a.md"),  # a theme without a name
    ({"docusaurus.config.js": "module.exports = {themes: ['my-theme']};"}, "docs/a.mdx"),  # not the classic theme
])
def test_a_theme_with_no_record_hides_nothing_more(config: dict[str, str], page: str) -> None:
    """docschat does not know what another theme's stylesheet hides: a class is read as before (not
    as alabaster's, Sphinx's default, nor furo's, nor the classic theme's)."""
    classes = ["d-none", "relations", "no-toc", "navbar-sidebar"]
    indexed = _indexed({**config, page: "# A\n\n" + "".join(f'<div class="{c}">KEPT {c}</div>\n\n' for c in classes)}, page)
    assert all(f"KEPT {c}" in indexed for c in classes), indexed


def test_the_record_holds_the_known_hiding_classes() -> None:
    """The classes the session-30 adversary found hiding in the themes' CSS, as Chromium recorded
    them at a desktop width; `tablet-hide` hides only below it."""
    recorded = _recorded()
    desktop = {theme: {name for name, styles in record["hidden"].items()
                       if any(width >= DESKTOP for widths in styles.values() for width in widths)}
               for framework in recorded.values() for theme, record in framework.items()}
    assert {"d-none", "invisible", "d-lg-none"} <= desktop["pydata_sphinx_theme"]
    assert {"d-none", "onlyprint"} <= desktop["sphinx_book_theme"]
    assert {"hidden", "invisible"} <= desktop["sphinx_rtd_theme"] and "tablet-hide" not in desktop["sphinx_rtd_theme"]
    assert {"d-none", "invisible"} <= desktop["mkdocs"] and "md-visually-hidden" not in desktop["material"]
    assert ".d-none{display: none}" in theme_css("sphinx", "pydata_sphinx_theme").splitlines()
    assert ".offcanvas{visibility: hidden}" in theme_css("sphinx", "pydata_sphinx_theme").splitlines()
    assert ".xl\\:hidden{display: none}" in theme_css("mintlify", "components").splitlines()
    assert theme_css("sphinx", "no_such_theme") == "" and theme_css("nothing", "furo") == ""

