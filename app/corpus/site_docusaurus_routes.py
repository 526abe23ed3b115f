"""Where Docusaurus publishes a doc under its instance's route: its id and slug, from its path in
the docs folder and its front matter, as @docusaurus/plugin-content-docs 3.10.2 computes them.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from typing import Any

# plugin-content-docs 3.10.2's DefaultNumberPrefixParser (numberPrefix.js): `01-intro` is `intro`,
# but a date or a version (`2021-11-notes`, `7.0-x`) keeps its number.
_IGNORED_PREFIX = re.compile(r"^\d+[-_.]\d+")
_NUMBER_PREFIX = re.compile(r"^\d+\s*[-_.]+\s*(?P<rest>[^-_.\s].*)$")


def _unprefixed(name: str) -> str:
    match = None if _IGNORED_PREFIX.match(name) else _NUMBER_PREFIX.match(name)
    return match.group("rest") if match else name


def doc_identity(relative: str, front: Mapping[str, Any]) -> tuple[str, str]:
    """A doc's id and its slug (its URL under the instance's route), from its path in the docs
    folder and its front matter, as plugin-content-docs 3.10.2 computes them (docs.js, slug.js)."""
    folder, _, file = relative.rpartition("/")
    name = file.rsplit(".", 1)[0]
    parse = front.get("parse_number_prefixes") is not False
    strip = _unprefixed if parse else str
    given_id, given_slug = front.get("id"), front.get("slug")
    base: str = given_id if isinstance(given_id, str) and given_id else strip(name)
    folder_id = "/".join(strip(part) for part in folder.split("/")) if folder else ""
    doc_id = f"{folder_id}/{base}" if folder_id else base
    folder_slug = f"/{folder_id}/" if folder_id else "/"
    slug: str | None = given_slug if isinstance(given_slug, str) and given_slug else None
    if slug is not None and slug.startswith("/"):
        return doc_id, slug
    if slug is None and name.lower() in ("index", "readme", folder.rpartition("/")[2].lower()):
        return doc_id, folder_slug  # a category's index doc: its folder's URL
    written = slug or base
    resolved = posixpath.normpath(posixpath.join(folder_slug, written))
    return doc_id, resolved + ("/" if written.endswith("/") and resolved != "/" else "")


def doc_identities(files: Mapping[str, str], folder: str, copies: str = "") -> dict[str, tuple[str, str]]:
    """Each doc of the docs `folder`: its path → (its id, its slug), from the front matter of its
    copy under `copies` (the default locale's translations folder) when it has one."""
    from app.corpus.frontmatter import front_matter_data

    prefix = "" if folder in ("", ".") else folder + "/"
    found = {}
    for path, content in files.items():
        if not path.startswith(prefix) or not path.endswith((".md", ".mdx")):
            continue
        text = files.get(copies + path[len(prefix):], content) if copies else content
        found[path] = doc_identity(path[len(prefix):], front_matter_data(text))
    return found
