"""Sections of a page in the order the page has them.

The index keeps no position for a section (ids are page + anchor), so the order is read back from
the page's file at the commit the source was synced at (docs_source_commit): each section goes where
its heading first stands in the file. Parts of a long section (id~2, id~3) follow it; a section whose
heading the file does not show (pasted from a snippet, or the file cannot be read: a source composed
in memory, a repository gone) keeps id order after the others. Readers: the doors (/llms-full.txt,
MCP's page reader), the page view, and the chat's offline answer (passages of one page in its order).
"""

from __future__ import annotations

import functools
import re
import subprocess
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol, TypeVar

from app.corpus.git_source import GitSourceError, GitTree
from app.corpus.sources import Source

# A heading line; a trailing `{#id}` (a custom anchor, as Docusaurus and Mintlify write it) is no
# part of the heading's text.
_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+(.+?)(?:[ \t]+\{#[^}]*\})?[ \t#]*$", re.MULTILINE)
# A further part of a long section has the section's id and "~N" (app/corpus/chunker.py). A page's
# path may hold "~" too, and an over-long id ends in "~" and 16 hex digits of a hash (bounded_id): only a
# short number at the very end is a part's.
_PART = re.compile(r"(.*)~([0-9]{1,9})", re.DOTALL)
MAX_PAGE_BYTES = 2_000_000


class SectionLike(Protocol):
    def __getitem__(self, key: str, /) -> object: ...


S = TypeVar("S", bound=SectionLike)


def _key(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "", text.lower())


def section_part(section_id: str) -> tuple[str, int]:
    """The id of the section `section_id` belongs to, and which part of it it is (1: the first)."""
    match = _PART.fullmatch(section_id)
    return (match.group(1), int(match.group(2))) if match else (section_id, 1)


def order_sections(sections: Iterable[S], raw: str | None) -> list[S]:
    """`sections` (rows with id and heading) in page order: the overview, then by the place of each
    heading in `raw` (the page's file; None: unknown), then by id; parts after their section."""
    positions: dict[str, int] = {}
    if raw:
        for number, match in enumerate(_HEADING.finditer(raw)):
            positions.setdefault(_key(match.group(1)), number)

    def order(row: S) -> tuple[object, ...]:
        heading = str(row["heading"])
        place = positions.get(_key(heading), len(positions)) if heading else -1
        return (place, *section_part(str(row["id"])))

    return sorted(sections, key=order)


def page_file(source: Source, page: str) -> str:
    folder = source.dir.strip("/")
    return page if folder in ("", ".") else f"{folder}/{page}"


def read_pages(repo: Path, commit: str, paths: list[str]) -> dict[str, str]:
    """The text of each of `paths` at `commit`, in one `git cat-file --batch`; a path that cannot be
    read is left out."""
    if not paths:
        return {}
    try:
        result = subprocess.run(
            ["git", "-C", str(repo), "cat-file", "--batch"], input="".join(f"{commit}:{p}\n" for p in paths).encode(),
            capture_output=True, check=False, timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired):
        return {}
    if result.returncode != 0:
        return {}
    out, texts, at = result.stdout, {}, 0
    for path in paths:
        end = out.find(b"\n", at)
        if end < 0:
            break
        header = out[at:end].split()
        at = end + 1
        if len(header) != 3 or header[1] != b"blob":
            continue  # "<name> missing"
        size = int(header[2])
        if size <= MAX_PAGE_BYTES:
            texts[path] = out[at:at + size].decode("utf-8", "replace")
        at += size + 1
    return texts


@contextmanager
def read_source_tree(source: Source | None, commit: str | None) -> Iterator[Mapping[str, str]]:
    """The files of one docs source at `commit` (paths from its folder), read when asked for; none
    when it is not a docs source of a repository that still has that commit."""
    if source is None or not commit or source.kind != "docs":
        yield {}
        return
    try:
        tree = GitTree(source.repo, commit, source.dir)
    except GitSourceError:
        yield {}
        return
    with tree:
        yield tree


def read_source_page(source: Source | None, commit: str | None, page: str) -> str | None:
    """One page's file at `commit` (None: unreadable), remembered: a file at a commit never changes,
    and the chat asks for the same pages turn after turn (a `git cat-file` costs 5-100 ms here)."""
    if source is None or not commit or source.kind != "docs":
        return None
    return _read_page(str(source.repo), commit, page_file(source, page))


@functools.lru_cache(maxsize=256)
def _read_page(repo: str, commit: str, path: str) -> str | None:
    return read_pages(Path(repo), commit, [path]).get(path)
