"""The one door from the review to the composer: a git revision of the configured sources → a
`Snapshot` (pages, chunks, audiences, anchors, links and warnings), composed in memory.

Everything the review knows about composing goes through this module, and only through compose's
public output (`compose_batches`: pages, chunks, page keys, warnings), so that a new parser or a
new way of deciding pages changes nothing here but, at most, how a warning is classified.

The head is composed as a sync composes it: the base's page keys are passed in, and a page whose
key is unchanged (the same blobs of the same files it read) is not composed again but taken from
the base. A check of one changed page therefore costs about one compose of the corpus.
"""

from __future__ import annotations

import posixpath
import re
import subprocess
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from urllib.parse import unquote

from app.config import Settings
from app.corpus.chunker import (
    AnchorAllocator,
    Chunk,
    Page,
    drop_duplicate_ids,
    heading_anchor,
    page_route,
    shown_heading,
)
from app.corpus.compose import PageKey, compose_batches
from app.corpus.frontmatter import parse_front_matter
from app.corpus.git_source import GitSourceError, normalize_docs_dir, resolve_commit
from app.corpus.sources import Source, SourcesConfig, parse_sources_config
from app.errors import DocschatError

# One part per source: the review holds both compositions whole anyway.
_ONE_PART = 1 << 40


__all__ = ["PageState", "RefError", "Snapshot", "Source", "Warning_", "compose_ref", "read_warning"]


class RefError(DocschatError):
    """A revision to compare cannot be read."""


@dataclass(frozen=True)
class Warning_:
    """One compose warning, as the review reads it: what kind, where. Never its words: a warning
    can be about hidden text. `detail` is for a fact a structured record may one day carry that
    is known safe; none is kept today."""

    kind: str
    source: str
    page: str | None
    line: int | None = None
    detail: str | None = None

    def identity(self) -> tuple[str, str, str | None, str | None]:
        """What makes two warnings the same across revisions: not the line, which moves with edits."""
        return (self.kind, self.source, self.page, self.detail)


@dataclass(frozen=True)
class PageState:
    source: str
    path: str
    route: str
    audiences: tuple[str, ...]
    declared: bool
    anchors: tuple[str, ...]  # every heading's anchor, in page order
    links: tuple[str, ...]  # link targets the page shows (images left out)

    @property
    def key(self) -> tuple[str, str]:
        return (self.source, self.path)


@dataclass
class Snapshot:
    """A revision of every source, composed."""

    ref: str
    commits: dict[str, str] = field(default_factory=dict)  # source → commit read
    pages: dict[tuple[str, str], PageState] = field(default_factory=dict)
    chunks: list[Chunk] = field(default_factory=list)
    warnings: list[Warning_] = field(default_factory=list)
    keys: dict[str, dict[str, PageKey]] = field(default_factory=dict)  # source → page → key
    # The Page objects, kept only for pages a later revision may take unchanged.
    _pages: dict[tuple[str, str], Page] = field(default_factory=dict)
    composed: int = 0  # pages composed for this snapshot (the others were unchanged and reused)
    sources: list[Source] = field(default_factory=list)  # as read: each at this revision (or pinned)
    _by_page: dict[tuple[str, str], list[Chunk]] | None = None
    _by_page_size: int = 0

    def chunks_of(self) -> dict[str, Chunk]:
        return {c.id: c for c in self.chunks}

    def chunks_by_page(self) -> dict[tuple[str, str], list[Chunk]]:
        """(source, page) → its chunks, built once (a later revision takes unchanged pages' chunks)."""
        if self._by_page is None or self._by_page_size != len(self.chunks):
            self._by_page, self._by_page_size = {}, len(self.chunks)
            for chunk in self.chunks:
                self._by_page.setdefault((chunk.source, chunk.page), []).append(chunk)
        return self._by_page


# --- warnings: whatever compose emits, read into (kind, page, line, detail) -----------------------

# A warning string is "<page>[:<line>]: <message>". The kinds below are read from the message; one
# the table does not know is kept as kind "other" with its place, its words withheld (they could
# quote what the page hides). A future structured record (an object or mapping with kind, page,
# line) is taken as it is.
_PLACE = re.compile(r"(?P<page>[^\n]+?)(?::(?P<line>\d+))?: (?P<message>.*)\Z", re.DOTALL)
_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("snippet_unresolved", re.compile(r"\bsnippet '.*' imported as .* not found")),
    ("snippet_cycle", re.compile(r"\bsnippet cycle\b")),
    ("snippet_limit", re.compile(r"\bmore than \d+ snippets\b")),
    ("front_matter_duplicate_key", re.compile(r"declared more than once|duplicate(d)? (front[- ]matter )?key", re.I)),
    ("audience_conflict", re.compile(r"are declared; keep one|contradicts")),
    ("front_matter_invalid", re.compile(r"front matter|YAML", re.I)),
    ("unclosed_comment", re.compile(r"(unclosed|never closed|not closed|unterminated).*comment|comment.*"
                                    r"(unclosed|never closed|not closed|unterminated)", re.I)),
    ("unknown_component", re.compile(r"unknown (jsx |mdx )?(component|element|tag)", re.I)),
    ("route_collision", re.compile(r"published at .*; page skipped")),
    ("unusable_path", re.compile(r"cannot be linked to; file skipped|a path of \d+ bytes")),
    ("duplicate_chunk", re.compile(r"a chunk with the id ")),
    ("parser_rejected", re.compile(r"parser rejects")),
    ("compose_error", re.compile(r"cannot be composed|page skipped|file skipped")),
)


def read_warning(raw: object, source: str) -> Warning_:
    """One warning of compose as (kind, page, line), whatever its form. Nothing of its message is
    kept, not even a snippet's path: compose looks up imports written inside a comment too, so
    the path can be words the page hides."""
    if not isinstance(raw, str):
        get = raw.get if isinstance(raw, Mapping) else (lambda name: getattr(raw, name, None))
        line = get("line")
        return Warning_(str(get("kind") or "other"), source, _text_or_none(get("page")),
                        line if isinstance(line, int) else None)
    place = _PLACE.match(raw)
    page, line, message = (place["page"], place["line"], place["message"]) if place else (None, None, raw)
    kind = next((name for name, pattern in _KINDS if pattern.search(message)), "other")
    return Warning_(kind, source, page, int(line) if line else None)


def _text_or_none(value: object) -> str | None:
    return str(value) if value is not None else None


# --- pages: anchors and links --------------------------------------------------------------------

_LINK_TARGET = re.compile(r"(?<![!\\])\[[^\[\]\n]*\]\(<?([^()\s<>]*)>?(?:\s+\"[^\"\n]*\")?\)")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:|//")


def _anchors(page: Page) -> tuple[str, ...]:
    """Every heading's anchor, allocated as the chunker allocates them (GitHub's numbering)."""
    allocator = AnchorAllocator()
    anchors = []
    for block in page.blocks:
        if block.kind == "heading":
            shown, explicit = shown_heading(block, page.anchor_style != "astro")
            anchors.append(allocator.allocate(heading_anchor(page, block, shown, explicit)))
    return tuple(anchors)


def _links(page: Page) -> tuple[str, ...]:
    """Targets of the links the page shows that stay on the site (no scheme, no `//host`)."""
    found = []
    for match in _LINK_TARGET.finditer(page.body):
        target = match.group(1)
        if target and not _SCHEME.match(target):
            found.append(target)
    return tuple(dict.fromkeys(found))


def _page_state(page: Page, source: Source) -> PageState:
    return PageState(page.source, page.path, page_route(page.url_path or page.path, source.url_prefix), page.audiences,
                     page.declared, _anchors(page), _links(page))


# --- composing a revision ------------------------------------------------------------------------


def has_revision(source: Source, ref: str) -> bool:
    """Whether the source's repository knows `ref`."""
    try:
        resolve_commit(source.repo, ref)
    except GitSourceError:
        return False
    return True


def compose_ref(sources: Iterable[Source], ref: str, settings: Settings, *, reuse: Snapshot | None = None,
                pinned: frozenset[str] = frozenset()) -> Snapshot:
    """Every source at `ref` (the sources named in `pinned` at their own branch), composed in
    memory. With `reuse` (the base), a page whose key is unchanged is taken from it instead of
    composed again, as a sync skips it."""
    snapshot = Snapshot(ref)
    for source in sources:
        at_ref = source if source.name in pinned else replace(source, branch=ref)
        snapshot.sources.append(at_ref)
        try:
            snapshot.commits[source.name] = resolve_commit(source.repo, at_ref.branch)
        except GitSourceError as exc:
            raise RefError(f"source {source.name!r}: {exc}") from None
        known = reuse.keys.get(source.name) if reuse is not None else None
        keys = snapshot.keys.setdefault(source.name, {})
        chunks: list[Chunk] = []
        try:
            for part in compose_batches(at_ref, settings, batch_chunks=_ONE_PART, known=known):
                for page in part.pages:
                    snapshot.pages[(source.name, page.path)] = _page_state(page, source)
                    snapshot._pages[(source.name, page.path)] = page
                snapshot.composed += len(part.pages)
                chunks.extend(part.chunks)
                snapshot.warnings.extend(read_warning(w, source.name) for w in part.warnings)
                keys.update({k.page: k for k in part.page_keys})
                for kept in part.kept:
                    assert reuse is not None
                    keys[kept.page] = kept
                    _take(snapshot, reuse, source, kept, chunks)
        except DocschatError as exc:
            raise RefError(f"source {source.name!r} at {at_ref.branch!r}: {exc}") from None
        chunks, duplicates = drop_duplicate_ids(chunks)
        snapshot.chunks.extend(chunks)
        snapshot.warnings.extend(read_warning(w, source.name) for w in duplicates)
    return snapshot


def _take(snapshot: Snapshot, base: Snapshot, source: Source, kept: PageKey, chunks: list[Chunk]) -> None:
    """An unchanged page of the base, its chunks and warnings, as if composed again."""
    key = (source.name, kept.page)
    page = base._pages[key]
    snapshot._pages[key] = page
    snapshot.pages[key] = base.pages[key]
    chunks.extend(base.chunks_by_page().get(key, ()))
    snapshot.warnings.extend(read_warning(w, source.name) for w in kept.warnings)


# --- where an audience is decided ----------------------------------------------------------------

_AUDIENCE_KEY = re.compile(r"(audiences?|public)\s*:", re.IGNORECASE)


def show_file(repo: Path, ref: str, path: str) -> str | None:
    """A file's text at `ref` (None when absent). Read only for the few pages whose audience changed."""
    done = subprocess.run(["git", "-C", str(repo), "show", f"{ref}:{path}"], capture_output=True, check=False)
    return done.stdout.decode("utf-8", "replace") if done.returncode == 0 else None


def repo_path(source: Source, page: str) -> str:
    folder = normalize_docs_dir(source.dir)
    return f"{folder}/{page}" if folder else page


def front_matter_line(text: str) -> int | None:
    """The 1-based line of the front matter that declares the audience (`audience:`, `audiences:`
    or `public:`, any case, at the top level), None when it declares none."""
    try:
        front = parse_front_matter(text)
    except ValueError:
        return None
    if not front.data:
        return None
    for number, line in enumerate(text.splitlines()[1:], start=2):
        if line.strip() == "---":
            return None
        if _AUDIENCE_KEY.match(line):
            return number
    return None


def source_default_line(config: ConfigAtRef | None, source_name: str, source_index: int) -> str:
    """Where the default audience of a source is decided: the `audience =` line of its table in
    docschat.toml (`file:line`), the table itself when it has none (the built-in default), or the
    DOCS_DEFAULT_AUDIENCE setting without a file."""
    if config is None:
        return "DOCS_DEFAULT_AUDIENCE (environment)"
    table, start = -1, None
    for number, line in enumerate(config.text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("["):
            if stripped.replace(" ", "") == "[[sources]]":
                table += 1
                if table == source_index:
                    start = number
                    continue
            if start is not None:
                break
        elif start is not None and re.match(r"audience\s*=", stripped):
            return f"{config.path}:{number}"
    return f"{config.path}:{start} (source {source_name!r} has no audience: the default)" if start else str(config.path)


@dataclass(frozen=True)
class ConfigAtRef:
    """docschat.toml as a revision has it: its sources, its text (for the line of a default), and
    whether it was read from git at that revision or, not tracked there, from the working tree."""

    path: Path
    text: str
    sources: tuple[Source, ...]
    from_git: bool


def config_at(path: Path, ref: str, settings: Settings) -> ConfigAtRef:
    """The sources docschat.toml lists at `ref`: read through git when the file is tracked in a
    repository that has `ref` (a pull request may change a source's default audience), else the
    working tree's file. Errors name the file and the revision."""
    folder = path.resolve().parent
    top = subprocess.run(["git", "-C", str(folder), "rev-parse", "--show-toplevel"], capture_output=True,
                         text=True, check=False)
    text, from_git, relative = None, False, ""
    if top.returncode == 0:
        relative = path.resolve().relative_to(Path(top.stdout.strip()).resolve()).as_posix()
        text = show_file(Path(top.stdout.strip()), ref, relative)
        from_git = text is not None
    if text is None:
        text = path.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RefError(f"{path} at {ref!r}: not valid TOML ({exc})") from None
    # Named as the repository names it (docschat.toml, docs/docschat.toml): the report is read in a pull
    # request, where the checkout's absolute path means nothing.
    shown = Path(relative) if from_git else path
    return ConfigAtRef(shown, text, parse_sources_config(data, path, settings).sources, from_git)


# --- links ---------------------------------------------------------------------------------------


def resolve_link(target: str, page: PageState, routes: Mapping[str, PageState],
                 by_path: Mapping[tuple[str, str], PageState], url_prefix: str) -> bool:
    """Whether a link of `page` reaches a page of the docs (and its anchor, when it names one).
    Tried as a file path relative to the page (`../a.md`), as a URL relative to the page's URL,
    and, for `/x`, as a route with and without the source's URL prefix (Mintlify links from the
    site's root)."""
    path, _, anchor = target.partition("#")
    path = unquote(path.split("?", 1)[0])
    anchor = unquote(anchor)
    if not path:
        return not anchor or anchor in page.anchors
    candidates: list[PageState] = []
    if path.startswith("/"):
        route = posixpath.normpath(path).rstrip("/") or "/"
        prefix = url_prefix.rstrip("/")
        for option in (route, prefix + route, _without_suffix(route), prefix + _without_suffix(route)):
            if option in routes:
                candidates.append(routes[option])
    else:
        folder = posixpath.dirname(page.path)
        file_path = posixpath.normpath(posixpath.join(folder, path))
        for option in (file_path, file_path + ".md", file_path + ".mdx", file_path + "/index.md",
                       file_path + "/index.mdx"):
            if (found := by_path.get((page.source, option))) is not None:
                candidates.append(found)
        url = posixpath.normpath(posixpath.join(posixpath.dirname(page.route), path)).rstrip("/")
        for option in (url, _without_suffix(url)):
            if option in routes:
                candidates.append(routes[option])
    if not candidates:
        return False
    return not anchor or any(anchor in found.anchors for found in candidates)


def _without_suffix(route: str) -> str:
    return re.sub(r"\.mdx?$", "", route)


def source_index(sources: Iterable[Source], name: str) -> int:
    return next((i for i, s in enumerate(sources) if s.name == name), 0)


def page_url_path(page: str, url_prefix: str) -> str:
    """The URL path a page is published at (`guides/a.mdx` → `/docs/guides/a`)."""
    return page_route(page, url_prefix)


def sources_config(snapshot: Snapshot) -> SourcesConfig:
    """The sources as the snapshot read them (each at its revision), for a sync of the scratch
    database through the sync's own path (questions.py)."""
    return SourcesConfig(tuple(snapshot.sources))
