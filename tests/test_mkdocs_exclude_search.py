"""mkdocs-exclude-search (issue 46: a page the site keeps out of its own search is left out of the
assistant too, as Material's `search: exclude` pages are). Compared with the real build
(tests/data/site-nav/mkdocs-exclude-search, recorded by scripts/record_mkdocs_search.py into
mkdocs-exclude-search.search.json: which pages the built search index still holds)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.compose import compose_files
from app.corpus.sources import Source

SITE = Path(__file__).parent / "data" / "site-nav" / "mkdocs-exclude-search"
RECORDED = json.loads((SITE.parent / "mkdocs-exclude-search.search.json").read_text())["pages"]
SOURCE = Source(name="site", repo=Path("."), audiences=("public",))


def _pages(config: str | None = None) -> tuple[set[str], list[tuple[str, str]]]:
    files = {path.relative_to(SITE).as_posix(): path.read_text() for path in SITE.rglob("*") if path.is_file()}
    result = compose_files({**files, **({"mkdocs.yml": config} if config is not None else {})}, Settings(), SOURCE)
    return {c.page for c in result.chunks}, [(path, reason.reason) for path, reason in result.excluded]


def test_pages_the_built_search_leaves_out_are_not_indexed() -> None:
    indexed, excluded = _pages()
    searchable = {name for name, page in RECORDED.items() if page["searchable"]}
    assert {name for name, page in RECORDED.items() if not page["searchable"]} == {
        "docs/internal.md", "docs/private/a.md", "docs/private/sub/index.md"}  # `private/*` misses private/index
    assert indexed == searchable  # a `#section` exclusion leaves its page (shown, as data-search-exclude is)
    assert all("exclude-search plugin" in reason for path, reason in excluded), excluded


@pytest.mark.parametrize(("plugins", "left_out"), [
    ("[exclude-search: {exclude: [internal.md]}]", set()),  # no search plugin: it does nothing
    ("[search, exclude-search: {exclude: internal.md}]", {"docs/internal.md"}),  # a string
    ("{search: {}, exclude-search: {exclude: [internal.md]}}", {"docs/internal.md"}),  # plugins as a mapping
    ("[search, exclude-search: {exclude: [internal.md], ignore: ['internal.md#keep']}]", set()),  # its record kept
    ("[search, exclude-search: {exclude_unreferenced: true}]", set(RECORDED) - {"docs/index.md"}),  # no nav
])
def test_the_plugins_options_as_it_reads_them(plugins: str, left_out: set[str]) -> None:
    indexed, _ = _pages(f"site_name: S\nplugins: {plugins}\n")
    assert set(RECORDED) - indexed == left_out, plugins


def test_without_directory_urls_an_index_is_its_index_page() -> None:
    indexed, _ = _pages("site_name: S\nuse_directory_urls: false\nplugins: [search, exclude-search: {exclude: "
                        "['private/index.md', guide/notes.md]}]\n")
    assert set(RECORDED) - indexed == {"docs/private/index.md", "docs/guide/notes.md"}
