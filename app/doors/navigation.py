"""The site's navigation order, for /llms.txt: what a docs reader sees in the sidebar.

- Mintlify: `docs.json` (or the older `mint.json`) at the root of the docs source, its
  `navigation`: tabs, anchors, dropdowns, languages, versions and products hold groups, a group
  holds pages (paths without extension) and groups, and may name a `root` page. Pages come in the
  order the file lists them, each under the path of groups it stands in; a page listed twice keeps
  its first place.
- Sphinx/MyST: a folder's `index` page lists its children in a `toctree` (```{toctree}``` in MyST,
  `.. toctree::` in reStructuredText). Folders stay the sections; the toctree orders a folder's pages
  and its sub-folders.
- Neither: pages follow their paths (a folder's index page first), as before.

Pages that the navigation does not list (hidden pages, pages of a folder with no toctree) follow
the listed ones, in path order.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

NAVIGATION_FILES = ("docs.json", "mint.json")
# Containers whose label is not a group of the sidebar (the page's section is its groups).
_CONTAINER_KEYS = ("tabs", "anchors", "dropdowns", "languages", "versions", "products", "groups", "pages",
                   "navigation")
_MAX_DEPTH = 20
_MYST_TOCTREE = re.compile(r"^(`{3,}|~{3,})\s*\{toctree\}[^\n]*\n(.*?)^\1", re.MULTILINE | re.DOTALL)
_RST_TOCTREE = re.compile(r"^\.\. toctree::[^\n]*\n((?:[ \t]+[^\n]*\n|[ \t]*\n)*)", re.MULTILINE)
_ENTRY_TARGET = re.compile(r"<([^<>]+)>\s*$")


def _stem(page: str) -> str:
    return re.sub(r"\.(mdx?|rst|ipynb)$", "", page.strip().lstrip("/"))


@dataclass(frozen=True)
class NavEntry:
    page: str  # path without extension, from the source's root
    groups: tuple[str, ...]  # the groups it stands in, outermost first


def docs_json_order(text: str) -> list[NavEntry]:
    """The pages of a docs.json/mint.json `navigation`, in order, each with its groups; [] when the
    file is not JSON or has no navigation."""
    try:
        data = json.loads(text)
    except ValueError:
        return []
    navigation = data.get("navigation") if isinstance(data, dict) else None
    entries: list[NavEntry] = []
    seen: set[str] = set()
    tabs = 0

    def add(page: str, groups: tuple[str, ...]) -> None:
        stem = _stem(page)
        if stem and stem not in seen and "://" not in stem:
            seen.add(stem)
            entries.append(NavEntry(stem, groups))

    def walk(node: Any, groups: tuple[str, ...], depth: int) -> None:
        nonlocal tabs
        if depth > _MAX_DEPTH:
            return
        if isinstance(node, str):
            add(node, groups)
        elif isinstance(node, list):
            for item in node:
                walk(item, groups, depth + 1)
        elif isinstance(node, dict):
            inner, label = groups, None
            if isinstance(node.get("group"), str):
                label = node["group"].strip()
            elif isinstance(node.get("tab"), str):
                tabs += 1
                # The first tab is the docs themselves; the others (API reference...) name their groups.
                label = node["tab"].strip() if tabs > 1 else None
            if label and (not groups or groups[-1] != label):  # "API reference › API reference": said once
                inner = (*groups, label)
            if isinstance(node.get("root"), str):
                add(node["root"], inner)
            for key in _CONTAINER_KEYS:
                if key in node:
                    walk(node[key], inner, depth + 1)

    walk(navigation, (), 0)
    return entries


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
            entries.append(_stem(path))
    return entries


def _folder(page: str) -> str:
    return page.rsplit("/", 1)[0] if "/" in page else ""


def _is_index(page: str) -> bool:
    return _stem(page).rsplit("/", 1)[-1] == "index"


@dataclass(frozen=True)
class PagePlace:
    """Where a page goes: `key` sorts it; `section` is its llms.txt section (None: its folder's)."""

    key: tuple[Any, ...]
    section: tuple[str, ...] | None


def navigation_places(pages: Iterable[str], files: dict[str, str]) -> dict[str, PagePlace]:
    """Each of `pages` (file paths of one docs source) → its place. `files`: file path → text, for
    the navigation file (docs.json, mint.json) and the pages (for their toctrees)."""
    pages = list(pages)
    by_stem = {_stem(p): p for p in pages}
    nav_text = next((files[name] for name in NAVIGATION_FILES if name in files), None)
    listed = [e for e in docs_json_order(nav_text) if e.page in by_stem] if nav_text else []
    places: dict[str, PagePlace] = {}
    if listed:
        for number, listed_entry in enumerate(listed):
            places[by_stem[listed_entry.page]] = PagePlace((0, number), listed_entry.groups or ("Docs",))
        rest = [p for p in pages if p not in places]
    else:
        rest = pages
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
        parts = _stem(page).split("/")
        folder_key = tuple(rank("/".join(parts[:i]), parts[i]) for i in range(len(parts) - 1))
        name = parts[-1]
        places[page] = PagePlace((1, folder_key, name != "index", rank(_folder(page), name), page), None)
    return places
