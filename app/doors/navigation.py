"""The site's navigation order, for /llms.txt: what a docs reader sees in the sidebar.

- A site whose navigation lists its pages (Mintlify's docs.json, MkDocs' nav, Docusaurus'
  sidebars, read by app/corpus/site.py as compose reads them): pages come in the order it lists
  them, each under its place there (tab › group).
- Sphinx/MyST: a folder's `index` page lists its children in a `toctree` (```{toctree}``` in MyST,
  `.. toctree::` in reStructuredText). Folders stay the sections; the toctree orders a folder's pages
  and its sub-folders.
- Neither: pages follow their paths (a folder's index page first), as before.

Pages that the navigation does not list (hidden pages, pages of a folder with no toctree) follow
the listed ones, in path order.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from app.corpus.site import read_site, stem

_MYST_TOCTREE = re.compile(r"^(`{3,}|~{3,})\s*\{toctree\}[^\n]*\n(.*?)^\1", re.MULTILINE | re.DOTALL)
_RST_TOCTREE = re.compile(r"^\.\. toctree::[^\n]*\n((?:[ \t]+[^\n]*\n|[ \t]*\n)*)", re.MULTILINE)
_ENTRY_TARGET = re.compile(r"<([^<>]+)>\s*$")


def toctree_entries(text: str, folder: str) -> list[str]:
    """The pages an index page's toctrees list (paths without extension from the source's root),
    in order; options, globs and external links are left out."""
    blocks = [m.group(2) for m in _MYST_TOCTREE.finditer(text)] + [m.group(1) for m in _RST_TOCTREE.finditer(text)]
    entries: list[str] = []
    for block in blocks:
        for raw in block.splitlines():
            line = raw.strip()
            if not line or line.startswith(":") or "*" in line or "://" in line or line.startswith(".."):
                continue
            target = _ENTRY_TARGET.search(line)
            entry = target.group(1).strip() if target else line
            if entry.startswith("/"):
                path = entry.lstrip("/")
            else:
                path = posixpath.normpath(posixpath.join(folder, entry)) if folder else posixpath.normpath(entry)
            if path.startswith(".."):
                continue
            entries.append(stem(path))
    return entries


def _folder(page: str) -> str:
    return page.rsplit("/", 1)[0] if "/" in page else ""


def _is_index(page: str) -> bool:
    return stem(page).rsplit("/", 1)[-1] == "index"


@dataclass(frozen=True)
class PagePlace:
    """Where a page goes: `key` sorts it; `section` is its llms.txt section (None: its folder's)."""

    key: tuple[Any, ...]
    section: tuple[str, ...] | None


def navigation_places(pages: Iterable[str], files: Mapping[str, str]) -> dict[str, PagePlace]:
    """Each of `pages` (file paths of one docs source) → its place. `files`: file path → text, for
    the site's configuration and the pages (for their toctrees)."""
    pages = list(pages)
    by_stem = {stem(p): p for p in pages}
    site = read_site(files)
    places: dict[str, PagePlace] = {}
    if not site.every_page_listed:
        listed = [(page, nav) for page, nav in site.listed.items() if page in by_stem]
        for number, (page, nav) in enumerate(listed):
            places[by_stem[page]] = PagePlace((0, number), nav.place or ("Docs",))
    rest = [p for p in pages if p not in places]
    # Folders by toctree where index pages have one, else by path; the section is the folder.
    orders: dict[str, dict[str, int]] = {}  # folder → {child page or sub-folder: position}
    for page in pages:
        if _is_index(page) and page in files:
            folder = _folder(page)
            children: dict[str, int] = {}
            for entry in toctree_entries(files[page], folder):
                rel = entry[len(folder) + 1:] if folder else entry
                if not rel or (folder and not entry.startswith(folder + "/")):
                    continue
                head = rel.split("/", 1)[0] if "/" in rel else rel
                children.setdefault(head, len(children))
            if children:
                orders[folder] = children

    def rank(parent: str, name: str) -> tuple[int, int, str]:
        position = orders.get(parent, {}).get(name)
        return (0, position, name) if position is not None else (1, 0, name)

    for page in rest:
        parts = stem(page).split("/")
        folder_key = tuple(rank("/".join(parts[:i]), parts[i]) for i in range(len(parts) - 1))
        name = parts[-1]
        places[page] = PagePlace((1, folder_key, name != "index", rank(_folder(page), name), page), None)
    return places
