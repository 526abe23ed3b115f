"""`docschat check`: what a docs change does to readers and to the chat, from two compositions.

Pure steps over two `Snapshot`s (compose_adapter.py): audiences, warnings new at the head,
anchors removed or renamed, links that no longer resolve, and the size of the change. The database
(stored answers, gaps) and the questions are optional parts added by `run_check`.
"""

from __future__ import annotations

import difflib
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.config import Settings
from app.review import compose_adapter as adapter
from app.review.compose_adapter import PageState, Snapshot, Source, Warning_
from app.review.model import (
    DEFAULT_FAIL_ON,
    HIDDEN_KINDS,
    AnchorChange,
    AudienceChange,
    BrokenLink,
    Report,
    Size,
)

# A section whose words changed this little under a new heading is the same section renamed.
RENAME_SIMILARITY = 0.8
# Sections longer than this together are renamed only when their text is the same (difflib's
# ratio would take seconds).
MAX_COMPARED_CHARS = 40_000


# --- audiences -----------------------------------------------------------------------------------


def _severity(before: tuple[str, ...] | None, after: tuple[str, ...] | None) -> int:
    if before is not None and after is not None:
        if "public" in after and "public" not in before:
            return 3
        return 2 if set(after) - set(before) else 1
    return 1


def audience_changes(base: Snapshot, head: Snapshot) -> list[AudienceChange]:
    """Pages whose audience changed, worst first: made public, then widened, then the rest (pages
    new or gone are listed when public, as they change what anonymous readers see)."""
    changes = []
    for key in sorted(set(base.pages) | set(head.pages)):
        before, after = base.pages.get(key), head.pages.get(key)
        b = before.audiences if before else None
        a = after.audiences if after else None
        if b == a:
            continue
        if (b is None and a is not None and "public" not in a) or (a is None and b is not None and "public" not in b):
            continue  # an internal page added or removed: the size says so
        severity = _severity(b, a)
        changes.append(AudienceChange(key[0], key[1], list(b) if b else None, list(a) if a else None, severity,
                                      flagged=severity == 3))
    changes.sort(key=lambda c: (-c.severity, c.source, c.page))
    return changes


def decide_lines(changes: list[AudienceChange], head: Snapshot, sources: list[Source],
                 config: adapter.ConfigAtRef | None, ref: str) -> None:
    """Fill in the line that decides each changed page's head audience: its front matter's line,
    or its source's default (docschat.toml or the environment)."""
    by_name = {s.name: s for s in sources}
    for change in changes:
        state = head.pages.get((change.source, change.page))
        source = by_name.get(change.source)
        if state is None or source is None:
            continue
        path = adapter.repo_path(source, change.page)
        if state.declared:
            text = adapter.show_file(source.repo, ref, path)
            line = adapter.front_matter_line(text) if text is not None else None
            change.decided_by = f"{path}:{line}" if line else f"{path} (front matter)"
        else:
            change.decided_by = adapter.source_default_line(config, source.name,
                                                            adapter.source_index(sources, source.name))


# --- warnings new at the head --------------------------------------------------------------------


def new_warnings(base: Snapshot, head: Snapshot) -> list[dict[str, Any]]:
    """The head's warnings that the base did not have (as many times as they are new), by kind
    and place only. Never a warning's words: they could quote what a page hides."""
    before = Counter(w.identity() for w in base.warnings)
    found: list[Warning_] = []
    for warning in head.warnings:
        if before[warning.identity()] > 0:
            before[warning.identity()] -= 1
        else:
            found.append(warning)
    found.sort(key=lambda w: (w.kind not in ("snippet_unresolved",), w.kind not in HIDDEN_KINDS, w.kind,
                              w.source, w.page or "", w.line or 0))
    return [{"kind": w.kind, "source": w.source, "page": w.page, "line": w.line, "detail": w.detail}
            for w in found]


# --- anchors and links ---------------------------------------------------------------------------


def _section_bodies(snapshot: Snapshot, pages: set[tuple[str, str]]) -> dict[tuple[str, str], dict[str, str]]:
    """(source, page) → anchor → the section's text without its heading line, parts joined, for
    the `pages` asked."""
    bodies: dict[tuple[str, str], dict[str, str]] = {}
    for chunk in snapshot.chunks:
        if not chunk.heading or (chunk.source, chunk.page) not in pages:
            continue
        anchor = chunk.href.partition("#")[2]
        text = (chunk.text.partition("\n")[2] if chunk.text.startswith("#") else chunk.text).strip()
        page = bodies.setdefault((chunk.source, chunk.page), {})
        page[anchor] = (page[anchor] + "\n\n" + text) if anchor in page else text
    return bodies


def anchor_changes(base: Snapshot, head: Snapshot) -> list[AnchorChange]:
    """Anchors of a page that the head no longer has, each renamed (the same section under a new
    heading on the same page) or removed. A page removed whole has its anchors listed too, as
    moved when a page added at the head holds its sections (a file renamed or moved)."""
    gone: dict[tuple[str, str], list[str]] = {}
    for key, before in sorted(base.pages.items()):
        after = head.pages.get(key)
        if after is not before:  # a page taken unchanged from the base is the same object
            lost = [a for a in dict.fromkeys(before.anchors) if after is None or a not in after.anchors]
            if lost:
                gone[key] = lost
    moves = moved_pages(base, head)
    base_bodies = _section_bodies(base, set(gone))
    head_bodies = _section_bodies(head, set(gone) | set(moves.values()))
    changes: list[AnchorChange] = []
    for key, lost in gone.items():
        after = head.pages.get(key)
        target = moves.get(key)
        if target is not None:  # sections are looked for on the page it moved to
            after = head.pages[target]
        added = [a for a in dict.fromkeys(after.anchors) if target or a not in base.pages[key].anchors] if after else []
        old_bodies, new_bodies = base_bodies.get(key, {}), head_bodies.get(target or key, {})
        for anchor in lost:
            renamed: str | None
            if target is not None and after is not None and anchor in after.anchors:
                renamed = anchor
            else:
                renamed = _renamed(old_bodies.get(anchor), added, new_bodies)
            changes.append(AnchorChange(key[0], key[1], anchor, renamed,
                                        moved_to=target[1] if target else None,
                                        internal=_internal(base.pages[key], after)))
    return changes


def moved_pages(base: Snapshot, head: Snapshot) -> dict[tuple[str, str], tuple[str, str]]:
    """Pages removed at the head → the page added at the head (same source) that holds most of
    their sections' text (at least half of the chunk texts the same): a file renamed or moved."""
    removed = [k for k in base.pages if k not in head.pages]
    added = [k for k in head.pages if k not in base.pages]
    if not removed or not added:
        return {}
    texts: dict[tuple[str, str], set[str]] = {}
    wanted = set(removed) | set(added)
    for snapshot in (base, head):
        for chunk in snapshot.chunks:
            if (chunk.source, chunk.page) in wanted:
                texts.setdefault((chunk.source, chunk.page), set()).add(chunk.text)
    moves = {}
    for old in removed:
        best, best_share = None, 0.5
        for new in added:
            if new[0] != old[0] or not texts.get(old) or not texts.get(new):
                continue
            share = len(texts[old] & texts[new]) / len(texts[old] | texts[new])
            if share >= best_share:
                best, best_share = new, share
        if best is not None:
            moves[old] = best
    return moves


def _internal(before: PageState | None, after: PageState | None) -> bool:
    """Whether a page is public at neither revision."""
    return not any(state is not None and "public" in state.audiences for state in (before, after))


def _renamed(body: str | None, added: list[str], bodies: dict[str, str]) -> str | None:
    if body is None or not body:
        return None
    best, best_ratio = None, RENAME_SIMILARITY
    for anchor in added:
        other = bodies.get(anchor)
        if other is None:
            continue
        if other == body:
            return anchor
        matcher = difflib.SequenceMatcher(None, body, other, autojunk=False)
        # Upper bounds first: the full ratio is quadratic in a long section's length.
        if matcher.real_quick_ratio() < best_ratio or matcher.quick_ratio() < best_ratio:
            continue
        ratio = matcher.ratio() if len(body) + len(other) <= MAX_COMPARED_CHARS else 0.0
        if ratio >= best_ratio:
            best, best_ratio = anchor, ratio
    return best


def broken_links(base: Snapshot, head: Snapshot, sources: list[Source]) -> list[BrokenLink]:
    """Links of the head's pages that reach no page (or no anchor of it) and did at the base, or
    are new. A link that did not resolve at the base either is not this change's doing."""
    prefixes = {s.name: s.url_prefix for s in sources}

    def resolver(snapshot: Snapshot) -> Any:
        routes = {p.route: p for p in snapshot.pages.values()}
        return lambda target, page: adapter.resolve_link(target, page, routes, snapshot.pages,
                                                         prefixes.get(page.source, "/docs"))

    resolves_at_base, resolves_at_head = resolver(base), resolver(head)
    found = []
    for key, page in sorted(head.pages.items()):
        before: PageState | None = base.pages.get(key)
        for target in page.links:
            if resolves_at_head(target, page):
                continue
            if before is not None and target in before.links:
                if not resolves_at_base(target, before):
                    continue
                found.append(BrokenLink(key[0], key[1], target, "resolved", internal=_internal(before, page)))
            else:
                found.append(BrokenLink(key[0], key[1], target, "new", internal=_internal(before, page)))
    return found


# --- size ----------------------------------------------------------------------------------------


def size_of(base: Snapshot, head: Snapshot) -> Size:
    size = Size(pages_composed_at_head=head.composed)
    old, new = base.chunks_of(), head.chunks_of()
    size.chunks_added = sum(1 for i in new if i not in old)
    size.chunks_removed = sum(1 for i in old if i not in new)
    size.chunks_changed = sum(1 for i, c in new.items() if i in old and old[i].content_hash != c.content_hash)
    pages_old: dict[tuple[str, str], set[tuple[str, str]]] = {}
    pages_new: dict[tuple[str, str], set[tuple[str, str]]] = {}
    for chunks, pages in ((old, pages_old), (new, pages_new)):
        for chunk in chunks.values():
            pages.setdefault((chunk.source, chunk.page), set()).add((chunk.id, chunk.content_hash))
    size.pages_added = sum(1 for k in head.pages if k not in base.pages)
    size.pages_removed = sum(1 for k in base.pages if k not in head.pages)
    size.pages_changed = sum(1 for k in head.pages if k in base.pages and (
        pages_old.get(k) != pages_new.get(k) or base.pages[k].audiences != head.pages[k].audiences))
    return size


def texts_to_embed(base: Snapshot, head: Snapshot) -> list[str]:
    """The embed texts of the head's chunks whose content the base (the index, once synced) does not
    hold: what a sync of the head would embed, before the cache is asked."""
    known = {c.content_hash for c in base.chunks}
    return list(dict.fromkeys(c.embed_text for c in head.chunks if c.content_hash not in known))


def count_embedding(size: Size, texts: list[str], settings: Settings, notes: list[str]) -> None:
    """How many of `texts` the configured provider would be asked for, the cache asked first."""
    from app.embeddings.cache import EmbeddingCache, cache_path
    from app.embeddings.providers import get_embedding_provider
    from app.errors import ConfigError

    try:
        provider = get_embedding_provider(settings)
    except ConfigError as exc:
        notes.append(f"embeddings not counted: {exc}")
        size.to_embed = len(texts)
        return
    if provider is None:
        notes.append("no embedding provider: a sync would embed nothing (keyword-only)")
        return
    size.embedding_model = provider.model
    path = cache_path(settings.docschat_home)
    cached = 0
    if texts and path.is_file():
        cache = EmbeddingCache(path)
        try:
            cached = len(cache.get_many(provider.model, texts))
        finally:
            cache.close()
    size.from_cache = cached
    size.to_embed = len(texts) - cached
    batch = max(getattr(provider, "batch_size", 1), 1)
    size.embedding_calls = -(-size.to_embed // batch)


# --- the whole check -----------------------------------------------------------------------------


@dataclass
class CheckOptions:
    base: str
    head: str
    sources: list[Source]
    config: Path | None = None  # docschat.toml: each revision's sources are read from it at that revision
    only: str | None = None  # --source
    show_internal: bool = False  # name the anchors and link targets of pages that are not public
    progress: Callable[[str], None] | None = None  # told each step (the CLI, on a terminal)

    def step(self, what: str) -> None:
        if self.progress is not None:
            self.progress(what)
    fail_on: tuple[str, ...] = DEFAULT_FAIL_ON
    questions: Path | None = None
    database_url: str | None = None
    gaps_limit: int = 10
    show_gap_questions: bool = False  # gaps are visitors' words: quoted only when asked


def sources_at_refs(options: CheckOptions, settings: Settings, notes: list[str]
                    ) -> tuple[list[Source], list[Source], adapter.ConfigAtRef | None]:
    """The sources at the base and at the head, and docschat.toml at the head: each revision's own
    file when git has it (a change to a source's default audience is then seen), else the working
    tree's. Without a file, the sources given (the environment's single source)."""
    if options.config is None:
        return options.sources, options.sources, None
    base_config = adapter.config_at(options.config, options.base, settings)
    head_config = adapter.config_at(options.config, options.head, settings)
    for ref, config in ((options.base, base_config), (options.head, head_config)):
        if not config.from_git:
            notes.append(f"{config.path} is not in git at {ref}: the working tree's file was read for it")
    return (sources_named(base_config.sources, options.only), sources_named(head_config.sources, options.only),
            head_config)


def _pinned(sources: list[Source], options: CheckOptions, notes: list[str]) -> frozenset[str]:
    """Sources whose repository lacks a revision (another repository than the change's): read at
    their own branch at both, as they are not part of the change. When every source lacks one,
    nothing is pinned and composing names the revision that is missing."""
    pinned = set()
    for source in {s.name: s for s in sources}.values():
        if not all(adapter.has_revision(source, ref) for ref in (options.base, options.head)):
            pinned.add(source.name)
    if len(pinned) == len({s.name for s in sources}):
        return frozenset()
    for name in sorted(pinned):
        notes.append(f"source {name!r}: its repository lacks {options.base!r} or {options.head!r}; read at its "
                     "own branch at both")
    return frozenset(pinned)


def compare(options: CheckOptions, settings: Settings) -> tuple[Report, Snapshot, Snapshot, list[Source]]:
    """Compose the base, then the head (unchanged pages reused), and compare them: no database.
    Also returns the head's sources."""
    started = time.perf_counter()
    report = Report(options.base, options.head, fail_on=options.fail_on, show_internal=options.show_internal)
    base_sources, head_sources, head_config = sources_at_refs(options, settings, report.notes)
    pinned = _pinned(base_sources + head_sources, options, report.notes)
    options.step(f"composing {options.base}")
    base = adapter.compose_ref(base_sources, options.base, settings, pinned=pinned)
    options.step(f"composing {options.head} (pages changed since {options.base})")
    head = adapter.compose_ref(head_sources, options.head, settings, reuse=base, pinned=pinned)
    report.commits = {name: {"base": base.commits.get(name, "-"), "head": head.commits.get(name, "-")}
                      for name in {**base.commits, **head.commits}}
    report.audiences = audience_changes(base, head)
    decide_lines(report.audiences, head, head_sources, head_config, options.head)
    report.warnings = new_warnings(base, head)
    report.anchors = anchor_changes(base, head)
    report.links = broken_links(base, head, head_sources)
    report.size = size_of(base, head)
    count_embedding(report.size, texts_to_embed(base, head), settings, report.notes)
    report.seconds = round(time.perf_counter() - started, 3)
    return report, base, head, head_sources


def run_check(options: CheckOptions, settings: Settings) -> Report:
    """The report `docschat check` prints: the comparison, then what the live database (read
    only) and the questions add when there are any."""
    started = time.perf_counter()
    report, base, head, sources = compare(options, settings)
    stored = None
    if options.database_url is not None:
        from app.review import stored as stored_module

        options.step("reading stored answers and gaps")
        read = stored_module.read_stored(options.database_url, options.gaps_limit)
        if isinstance(read, str):
            report.notes.append(f"{read}: anchors cited by stored answers or gaps, and recent gaps, not checked")
        else:
            stored = read
            stored_module.add_citations(report, stored, sources, base)
    else:
        report.notes.append("no database: anchors cited by stored answers or gaps, and recent gaps, not checked")
    if options.questions is not None or (stored is not None and stored.gaps):
        from app.review import questions

        options.step("asking the questions at both revisions in a scratch database")
        cluster = options.database_url or questions.embedded_cluster(settings)
        if options.questions is not None:
            questions.add_questions(report, options.questions, base, head, settings, cluster)
        elif stored is not None:
            questions.add_gaps(report, stored.gaps, base, head, settings, cluster,
                               changed_page_urls(base, head, sources, settings.docs_base_url),
                               quote=options.show_gap_questions)
    report.seconds = round(time.perf_counter() - started, 3)
    return report


def changed_page_urls(base: Snapshot, head: Snapshot, sources: list[Source], base_url: str) -> set[str]:
    """The absolute URLs of the head's pages this change added or changed (their chunks differ)."""
    from app.search.urls import absolute_url

    old: dict[tuple[str, str], set[str]] = {}
    new: dict[tuple[str, str], set[str]] = {}
    for chunks, pages in ((base.chunks, old), (head.chunks, new)):
        for chunk in chunks:
            pages.setdefault((chunk.source, chunk.page), set()).add(chunk.content_hash)
    prefixes = {s.name: s for s in sources}
    urls = set()
    for key, hashes in new.items():
        if old.get(key) != hashes and (source := prefixes.get(key[0])) is not None:
            # The route the site publishes it at (a Docusaurus routeBasePath), as its chunks' hrefs.
            route = head.pages[key].route if key in head.pages else adapter.page_url_path(key[1], source.url_prefix)
            urls.add(absolute_url(source.base_url or base_url, route))
    return urls


def sources_named(sources: Iterable[Source], only: str | None) -> list[Source]:
    """The docs sources to check (code sources are left out), or only the one named."""
    chosen = [s for s in sources if (only is None and s.kind == "docs") or s.name == only]
    return chosen
