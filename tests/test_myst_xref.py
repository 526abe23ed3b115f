"""MyST `{ref}`, `{doc}` and `{any}` roles without a title show the title Sphinx shows
(app/corpus/myst_xref.py): compared with tests/data/myst-xref.shown.json, what Sphinx 9.0.4 and
myst-parser 5.2.0 built of tests/data/myst-xref (scripts/record_myst_xref.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.compose import compose_batches, compose_files
from app.corpus.myst_xref import EVERY_MARKDOWN_PAGE
from app.corpus.sources import Source
from tests.helpers import commit_all, copy_tree_as_repo, git, write_files

SITE = Path(__file__).parent / "data" / "myst-xref"
RECORDED = json.loads((SITE.parent / "myst-xref.shown.json").read_text())["shown"]


def _files() -> dict[str, str]:
    return {p.relative_to(SITE).as_posix(): p.read_text() for p in SITE.rglob("*") if p.is_file()}


def _source(**options: object) -> Source:
    return Source(name="x", repo=Path("."), dir=".", audiences=("public",), **options)  # type: ignore[arg-type]


def test_roles_without_a_title_show_what_sphinx_shows() -> None:
    result = compose_files(_files(), Settings(), _source())
    text = " ".join(" ".join(chunk.text.split()) for chunk in result.chunks)
    shown = dict(re.findall(r"(xr\d\d)a (.*?) \1b", text))
    assert shown == RECORDED


def test_on_a_site_without_conf_py_the_titles_are_found_too() -> None:
    """A MyST corpus with no configuration (the shared ray corpus): its pages are MyST by their syntax."""
    files = {path: text for path, text in _files().items() if path != "conf.py"}
    text = " ".join(c.text for c in compose_files(files, Settings(), _source()).chunks)
    assert "xr01a Installing the tool xr01b" in text and "xr15a API reference xr15b" in text


def test_a_page_without_a_heading_is_named_by_its_front_matter_title() -> None:
    """A page whose title is in its front matter only (myst_title_to_header's heading; the shared ray
    corpus moved each page's heading there)."""
    files = {"a.md": "See {doc}`b` and {doc}`c`.\n", "b.md": "---\ntitle: Bee page\n---\nText of b.\n\n## Code example\n",
             "c.md": "Text of c.\n\n## Sea section\n"}
    assert "See Bee page and Sea section." in compose_files(files, Settings(), _source()).chunks[0].text


@pytest.mark.parametrize(("edit", "recomposed"), [
    # The titles a page shows change: the pages showing them are composed again.
    ({"site/guide.md": "# The guide, renamed\n\n(install-label)=\n## Installation\n"},
     {"site/index.md", "site/api/reference.md"}),
    # A page (in no toctree: not indexed) defines a label no page did: the page naming it shows its title.
    ({"site/api/more.md": "(missing-label)=\n# Found at last\n"}, {"site/index.md"}),
    # Any Markdown page changes: the page naming a label nowhere is composed again (it may define it).
    ({"site/api/notes.md": "# Notes\n"}, {"site/index.md"}),
    # Another file changes: no page is composed again.
    ({"site/picture.txt": "not a page"}, set()),
    # An `.rst` page whose labels and title a page shows changes (a page itself, composed again);
    # a new one defines a label.
    ({"site/rstpage.rst": "An rst page renamed\n===================\n"}, {"site/index.md", "site/rstpage.rst"}),
    ({"site/api/more.rst": ".. _missing-label:\n\nFound in rst\n============\n"}, {"site/index.md"}),
])
def test_a_page_showing_a_title_is_composed_again_when_the_title_changes(
        edit: dict[str, str], recomposed: set[str], tmp_path: Path) -> None:
    repo = copy_tree_as_repo(SITE, tmp_path / "repo", docs_dir="site")
    source = Source(name="x", repo=repo, dir="site", audiences=("public",))
    keys = {k.page: k for part in compose_batches(source, Settings(), batch_chunks=1000) for k in part.page_keys}
    assert EVERY_MARKDOWN_PAGE in keys["index.md"].deps  # it names a label no page defines
    assert EVERY_MARKDOWN_PAGE not in keys["api/reference.md"].deps
    write_files(repo, edit)
    commit_all(repo, "edit")
    again = list(compose_batches(source, Settings(), batch_chunks=1000, known=keys))
    composed = {"site/" + page.path for part in again for page in part.pages}
    assert composed - {"site/guide.md"} == recomposed
    text = " ".join(c.text for part in again for c in part.chunks)
    if "site/api/more.md" in edit:
        assert "xr06a Found at last xr06b" in text
    elif "site/api/more.rst" in edit:
        assert "xr06a Found in rst xr06b" in text
    elif "site/rstpage.rst" in edit:
        assert "xr22a An rst page renamed xr22b" in text and "xr21a rst-section-label xr21b" in text
    elif "site/guide.md" in edit:
        assert "xr02a The guide, renamed xr02b" in text and "xr01a Installation xr01b" in text


def test_a_page_showing_a_section_title_depends_on_the_page_defining_it(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write_files(repo, {"docs/a.md": "# A\n\nSee {ref}`lab`.\n", "docs/b.md": "# B\n\n(lab)=\n## Bee section\n\nText.\n",
                       "docs/c.md": "# C\n\nAnother page.\n"})

    git(repo, "init", "-q", "-b", "main")
    commit_all(repo, "docs")
    source = Source(name="x", repo=repo, dir="docs", audiences=("public",))
    keys = {k.page: k for part in compose_batches(source, Settings(), batch_chunks=1000) for k in part.page_keys}
    assert set(keys) == {"a.md", "b.md", "c.md"} and "b.md" in keys["a.md"].deps
    write_files(repo, {"docs/b.md": "# B\n\n(lab)=\n## Renamed section\n\nText.\n"})
    commit_all(repo, "rename")
    again = list(compose_batches(source, Settings(), batch_chunks=1000, known=keys))
    assert sorted(page.path for part in again for page in part.pages) == ["a.md", "b.md"]
    assert "See Renamed section." in " ".join(c.text for part in again for c in part.chunks)


def test_a_label_on_a_page_with_windows_line_endings_is_found() -> None:
    files = {"a.md": "See {ref}`lab`.\r\n", "b.md": "# B\r\n\r\n(lab)=\r\n## Bee section\r\n\r\nText.\r\n"}
    assert "See Bee section." in compose_files(files, Settings(), _source()).chunks[0].text


def test_an_internal_page_s_titles_never_show_on_a_public_page() -> None:
    files = {"a.md": "---\naudience: public\n---\nSee {ref}`lab` and {doc}`b`.\n",
             "b.md": "---\naudience: internal\n---\n# Project Nightjar\n\n(lab)=\n## Nightjar launch plan\n"}
    result = compose_files(files, Settings(), Source(name="x", repo=Path("."), dir="."))
    public = " ".join(c.text for c in result.chunks if c.page == "a.md")
    assert "See lab and b." in public and "Nightjar" not in public
    assert any("a.md: a role names a title of b.md" in w for w in result.warnings)


def test_a_page_sphinx_never_builds_defines_no_title() -> None:
    files = {"conf.py": 'extensions = ["myst_parser"]\nexclude_patterns = ["drafts/*"]\n',
             "index.md": "# Home\n\nSee {ref}`lab` and {doc}`drafts/next`.\n",
             "drafts/next.md": "# Unannounced feature\n\n(lab)=\n## Secret section\n"}
    text = " ".join(c.text for c in compose_files(files, Settings(), _source()).chunks)
    assert "See lab and drafts/next." in text and "Secret" not in text and "Unannounced" not in text
