"""The site's navigation order, for /llms.txt: what a docs reader sees in the sidebar.

- A site whose navigation lists its pages (Mintlify's docs.json, MkDocs' nav, Docusaurus'
  sidebars, Sphinx's toctrees; read by app/corpus/site.py as compose reads them): pages come in
  the order it lists them, each under its place there (tab › group).
- Otherwise: pages follow their paths (a folder's index page first), under their folder.

Pages that the navigation does not list (hidden pages) follow the listed ones, in path order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from app.corpus.site import read_site, stem


@dataclass(frozen=True)
class PagePlace:
    """Where a page goes: `key` sorts it; `section` is its llms.txt section (None: its folder's)."""

    key: tuple[Any, ...]
    section: tuple[str, ...] | None


def navigation_places(pages: Iterable[str], files: Mapping[str, str]) -> dict[str, PagePlace]:
    """Each of `pages` (file paths of one docs source) → its place. `files`: file path → text, for
    the site's configuration (and a Sphinx site's toctrees, in its pages)."""
    pages = list(pages)
    by_stem = {stem(p): p for p in pages}
    site = read_site(files)
    places: dict[str, PagePlace] = {}
    if not site.every_page_listed:
        listed = [(page, nav) for page, nav in site.listed.items() if page in by_stem]
        for number, (page, nav) in enumerate(listed):
            places[by_stem[page]] = PagePlace((0, number), nav.place or ("Docs",))
    for page in (p for p in pages if p not in places):  # by folder, a folder's index page first
        parts = stem(page).split("/")
        places[page] = PagePlace((1, tuple(parts[:-1]), parts[-1] != "index", parts[-1], page), None)
    return places
