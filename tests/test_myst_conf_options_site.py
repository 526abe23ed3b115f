"""The recorded myst-conf-options site (issue 46): a conf.py whose myst_enable_extensions leaves
colon_fence out (a `:::` line is text: `:::{only}` shows, a `:::{code-block}`'s HTML comment is a
comment, a `{.cls}` over `:::{tip}` classes a paragraph), a page whose front matter lists it again,
and todo_include_todos (a `{todo}` shows). Compared with the real build
(tests/data/site-nav/myst-conf-options, recorded by scripts/record_myst_site.py into
myst-conf-options.shown.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.compose import compose_files

SITE = Path(__file__).parent / "data" / "site-nav" / "myst-conf-options"
RECORDED = json.loads((SITE.parent / "myst-conf-options.shown.json").read_text())["pages"]
FILES = {path.name: path.read_text() for path in SITE.iterdir()}


def _indexed(files: dict[str, str], page: str) -> str:
    result = compose_files(files, Settings())
    assert not result.warnings, result.warnings
    return "\n".join(f"{c.heading}\n{c.embed_text}" for c in result.chunks if c.page == page)


@pytest.mark.parametrize("page", sorted(RECORDED))
def test_each_page_shows_what_its_build_shows(page: str) -> None:
    indexed = _indexed(FILES, page)
    assert [m for m in RECORDED[page]["hidden"] if m in indexed] == []
    assert [m for m in RECORDED[page]["shown"] if m not in indexed] == []


@pytest.mark.parametrize("written", [
    "myst_enable_extensions = ['attrs_block'] + EXTRA\n",  # not a literal
    "myst_enable_extensions = ['attrs_block']\nmyst_enable_extensions.append('colon_fence')\n",
    # An extension not recorded may turn it on (canonical-sphinx turns on substitution, deflist).
    "myst_enable_extensions = ['attrs_block']\nextensions.append('canonical_sphinx')\n",
    "myst_enable_extensions = ['attrs_block']\nextensions = ['myst_parser', 'canonical_sphinx']\n",
])
def test_a_list_code_writes_or_an_unknown_extension_keeps_colon_fences(written: str) -> None:
    conf = FILES["conf.py"].replace("myst_enable_extensions = [\"attrs_block\"]\n", written)
    result = compose_files({**FILES, "conf.py": conf}, Settings())
    indexed = "\n".join(c.embed_text for c in result.chunks)
    assert "marker-colons-only-shown" not in indexed  # read as a fence: `{only} internal` hides


def test_todos_are_hidden_without_todo_include_todos() -> None:
    conf = FILES["conf.py"].replace("todo_include_todos = True", "")
    indexed = _indexed({**FILES, "conf.py": conf}, "todo.md")
    assert "marker-todo-shown" not in indexed and "marker-rst-todo-shown" not in indexed
