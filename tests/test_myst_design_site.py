"""The recorded myst-design site (issue 46). A Sphinx extension's own stylesheet hides what a page
names: sphinx-design's display classes (`sd-d-none`, `sd-d-md-none`, …) in a `:class:` option, a `{div}`'s argument or an
attribute hide their element on the built site. Compared with the real build
(tests/data/site-nav/myst-design, recorded by scripts/record_myst_site.py into
myst-design.shown.json; the classes by scripts/record_theme_hiding.py --sphinx-extensions). And
roles whose text Sphinx replaces (roles.md): `{numref}` with numfig on, `{sub-ref}`'s computed values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.compose import compose_files

SITE = Path(__file__).parent / "data" / "site-nav" / "myst-design"
RECORDED_PAGES = json.loads((SITE.parent / "myst-design.shown.json").read_text())["pages"]
RECORDED = RECORDED_PAGES["index.md"]
# `sd-d-none sd-d-md-block` shows again at a desktop's width; the reader keeps no showing rule
# (theme_hiding.sphinx_extensions_css): hidden, more than the site, never less.
LOST_ON_PURPOSE = {"marker-sd-md-block"}
PAGE = (SITE / "index.md").read_text()


def _indexed(files: dict[str, str]) -> str:
    result = compose_files(files, Settings())
    assert not result.warnings, result.warnings
    return "\n".join(f"{c.title}\n{c.heading}\n{c.embed_text}" for c in result.chunks)


def test_what_sphinx_design_classes_hide_is_not_indexed() -> None:
    indexed = _indexed({"conf.py": (SITE / "conf.py").read_text(), "index.md": PAGE})
    assert [m for m in RECORDED["hidden"] if m in indexed] == []
    assert [m for m in RECORDED["shown"] if m not in indexed] == sorted(LOST_ON_PURPOSE)


@pytest.mark.parametrize("conf", [
    "extensions = ['myst_parser']\nextensions += ['sphinx_design']\n",  # changed by code: every extension's classes
    "import os\nextensions = ['myst_parser'] + os.environ.get('EXT', '').split()\n",
])
def test_extensions_code_changes_hide_every_recorded_extensions_classes(conf: str) -> None:
    indexed = _indexed({"conf.py": conf + "myst_enable_extensions = ['colon_fence']\n", "index.md": PAGE})
    assert "marker-sd-div-none" not in indexed and "marker-sd-shown" in indexed


def test_without_sphinx_design_its_classes_hide_nothing() -> None:
    conf = "extensions = ['myst_parser']\nmyst_enable_extensions = ['colon_fence']\n"
    indexed = _indexed({"conf.py": conf, "index.md": ":::{note}\n:class: sd-d-none\nA note marker-plain.\n:::\n"})
    assert "marker-plain" in indexed


def test_a_jupyter_book_loads_sphinx_design() -> None:
    # jupyter-book's generated Sphinx configuration lists sphinx_design among its extensions.
    files = {"_config.yml": "title: Book\nparse:\n  myst_enable_extensions: [colon_fence]\n",
             "_toc.yml": "format: jb-book\nroot: index\n", "index.md": PAGE}
    indexed = _indexed(files)
    assert "marker-sd-div-none" not in indexed and "marker-sd-note-none" not in indexed
    assert "marker-sd-shown" in indexed


def test_roles_whose_text_sphinx_replaces_show_no_label_or_key() -> None:
    # roles.md's build (numfig on) shows "See Fig. 1 and Figure 1, …" and "17, 1, Dec 07, 2026":
    # neither the figure's label nor the `{sub-ref}` names.
    page = RECORDED_PAGES["roles.md"]
    files = {path.relative_to(SITE).as_posix(): path.read_text() for path in SITE.glob("*.*")}
    indexed = _indexed(files)
    assert [m for m in page["hidden"] if m in indexed] == []
    assert [m for m in page["shown"] if m not in indexed] == []
    assert "wordcount" not in indexed and "today" not in indexed and "Figure %s" not in indexed
    # numfig off (Sphinx's default): the label as written shows (myst-probes `role-targets.md`).
    files["conf.py"] = files["conf.py"].replace("numfig = True", "")
    assert "marker-roles-figure-label" in _indexed(files)


# Pages of session 35 (issue 46): sphinx-design 0.8's other boxes (`{aside}`, `{steps}`, `{accordion}`,
# `{card-header}`, `{card-carousel}`, and a dropdown's `:class-container:` in `{eval-rst}`), its
# icon roles, a `:figclass:` its `!important` rules hide, a page whose front matter leaves
# colon_fence out (a `:::` line is text there, what follows the page's Markdown), and the options
# that class one part of a box (`:class-title:`, `:class-body:`, …: the other parts show).
@pytest.mark.parametrize("name", ["boxes.md", "icons.md", "figures.md", "no-colon-fence.md", "parts.md"])
def test_a_page_shows_what_its_build_shows(name: str) -> None:
    conf = (SITE / "conf.py").read_text() + f"root_doc = {name.removesuffix('.md')!r}\n"
    indexed = _indexed({"conf.py": conf, name: (SITE / name).read_text()})
    page = RECORDED_PAGES[name]
    assert [m for m in page["hidden"] if m in indexed] == []
    assert [m for m in page["shown"] if m not in indexed] == []


def test_a_figclass_hides_only_with_the_extension_that_hides_it() -> None:
    # Without sphinx-design no rule hides `sd-d-none`; basic.css shows the figure.
    conf = "extensions = ['myst_parser']\nmyst_enable_extensions = ['colon_fence']\nroot_doc = 'figures'\n"
    indexed = _indexed({"conf.py": conf, "figures.md": (SITE / "figures.md").read_text()})
    assert "marker-figclass-none" in indexed and "marker-figclass-plain-shown" in indexed
