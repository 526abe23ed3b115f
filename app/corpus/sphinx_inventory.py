"""What an intersphinx `{ref}`/`{doc}` to another project shows: Sphinx downloads that project's
inventory (objects.inv) at build time and shows the target's title from it. docschat never reaches
the network; it reads the inventories the repository commits as conf.py's fallback
(`intersphinx_mapping = {"snap": ("https://…", (None, ".sphinx/intersphinx/snap-objects.inv"))}`,
Canonical's starter pack), which is what Sphinx reads when the remote one cannot be fetched. An
inventory neither committed nor readable: the target shows as written, as Sphinx shows it then
(it warns "undefined label"). Recorded: tests/data/site-nav/myst-canonical.

The format (sphinx.util.inventory, version 2): four `#` header lines, then zlib-compressed lines
`name domain:role priority uri dispname`, a dispname `-` meaning the name itself."""

from __future__ import annotations

import posixpath
import re
import zlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.corpus.site_model import Site

_LINE = re.compile(r"(.+?)\s+(\S+):(\S+)\s+(-?\d+)\s+?(\S*)\s+(.*)")
_ROLES = {"std:label": "ref", "std:doc": "doc"}  # the entries `{ref}` and `{doc}` name
# Bounds on what one inventory adds to the site (cloud-init's is about 2,000 entries).
_MAX_INVENTORY_BYTES = 4_000_000
_MAX_ENTRIES = 50_000


def local_inventories(values: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """conf.py's literal intersphinx_mapping: each project's name and the path (in the site) of
    each local inventory it names (`(uri, "file.inv")`, `(uri, (None, "file.inv"))`)."""
    mapping = values.get("intersphinx_mapping")
    found: list[tuple[str, str]] = []
    for name, entry in mapping.items() if isinstance(mapping, dict) else ():
        if not isinstance(name, str) or not isinstance(entry, (tuple, list)) or len(entry) != 2:
            continue
        locations = entry[1] if isinstance(entry[1], (tuple, list)) else (entry[1],)
        for location in locations:
            if isinstance(location, str) and "://" not in location:
                path = posixpath.normpath(location)
                if not path.startswith(("/", "../")) and path != "..":
                    found.append((name, path))
    return tuple(found)


def _entries(data: bytes) -> Iterator[tuple[str, str, str]]:
    """An inventory's `{ref}`/`{doc}` entries: (role, name, title); nothing from one not readable."""
    header = data.split(b"\n", 4)
    if len(header) < 5 or header[0].rstrip() != b"# Sphinx inventory version 2" or len(data) > _MAX_INVENTORY_BYTES:
        return
    try:
        text = zlib.decompressobj().decompress(header[4], _MAX_INVENTORY_BYTES * 4).decode("utf-8", "replace")
    except zlib.error:
        return
    for count, line in enumerate(text.splitlines()):
        if count >= _MAX_ENTRIES:
            return
        if (match := _LINE.fullmatch(line.rstrip())) is None:
            continue
        name, domain, role, _, _, title = match.groups()
        if (kind := _ROLES.get(f"{domain}:{role}")) is not None:
            yield kind, name, name if title == "-" else title


def with_inventories(site: Site, read: Callable[[str], bytes | None]) -> Site:
    """The site with the entries of the local inventories its conf.py names (`read(path)`: the
    file's bytes, None when absent), each under `project:name` as a role names it. Before any
    inventory, the site as it was: part of every page's key, so an edited inventory recomposes."""
    if site.myst is None or not site.myst.inventory_files:
        return site
    found: dict[str, str] = {}
    for project, path in site.myst.inventory_files:
        for kind, name, title in _entries(read(path) or b""):
            found.setdefault(f"{kind} {project}:{name.lower() if kind == 'ref' else name}", title)
    site.myst = replace(site.myst, inventory=tuple(sorted(found.items())))
    return site


_LOOKUP: list[tuple[tuple[tuple[str, str], ...], dict[str, str]] | None] = [None]


def inventory_title(inventory: tuple[tuple[str, str], ...], role: str, target: str) -> str | None:
    """The title `{role}`project:target`` shows from an inventory, None when none holds it."""
    if role not in ("ref", "doc", "any") or ":" not in target or not inventory:
        return None
    cached = _LOOKUP[0]
    if cached is None or cached[0] is not inventory:  # the site's, made into a dict once (a pair: swapped whole)
        cached = _LOOKUP[0] = (inventory, dict(inventory))
    entries = cached[1]
    for kind in (("ref", "doc") if role == "any" else (role,)):
        project, _, name = target.partition(":")
        found = entries.get(f"{kind} {project}:{name.lower() if kind == 'ref' else name.lstrip('/')}")
        if found is not None:
            return found
    return None
