"""Sync: compose every source in batches → a pure plan per batch → embed → stage; one short switch.

- A source is composed in parts of whole pages (about BATCH_CHUNKS chunks: compose_batches reads
  the files from git one at a time), in a worker thread, off the event loop.
- `plan_sync` is pure: from the rows in the database for the batch's pages and the batch's
  chunks it decides what to embed, what changed only in metadata (an audience, a title), what
  vanished.
- Embedding runs outside any transaction and lock: it is the slow part. Vectors travel as float32
  arrays (numpy), never as lists of Python floats.
- Each batch's plan is written (one pipelined insert) into this sync's generation of docs_section_stage, an
  unlogged scratch table that no reader reads; what Python holds is one batch.
- When every source is staged, the switch: one short transaction takes the advisory lock
  (pg_advisory_xact_lock), checks that docs_index_version is the one read before the first batch
  was planned (another writer ran meanwhile: the sync plans again), and applies the generation
  with public.docs_sync_switch, which keeps the word statistics current from the touched rows
  only. A reader sees every source as it was before or as it is after, never half of one; a sync
  killed before its switch leaves only its staged generation, deleted by a later sync
  (design/scale-sync.md).

A source that cannot be read keeps its rows as they were; the others sync; the report names it.
A source no longer configured loses its rows.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field

import asyncpg
import numpy as np
import numpy.typing as npt

from app.config import Settings
from app.corpus.chunker import Chunk, drop_duplicate_ids
from app.corpus.code_source import links_at_commit
from app.corpus.compose import ComposeResult, DocsSource, PageKey, compose_batches, compose_corpus
from app.corpus.sources import DEFAULT_AUDIENCE, Source, SourcesConfig
from app.embeddings.base import MIN_SHORTENED_CHARS, EmbeddingProvider, embed_shortening
from app.embeddings.cache import EmbeddingCache
from app.errors import DocschatError, EmbeddingInputRefusedError, describe_error
from app.logging import get_logger
from app.metrics import record_sync

log = get_logger(__name__)

# pg_advisory_xact_lock key: any fixed 64-bit number, shared by every docschat sync.
SYNC_LOCK_KEY = 0x646F6373_63686174  # "docschat"
MAX_PLAN_ATTEMPTS = 3
# Chunks composed, planned, embedded and staged together: what a sync holds in memory at a time.
BATCH_CHUNKS = 2000
# A staged generation untouched this long belongs to a sync that died: the next sync deletes it.
STALE_GENERATION_SECONDS = 3600

ProgressCallback = Callable[[int, int], None]
Vector = npt.NDArray[np.float32]


class SyncBusyError(DocschatError):
    """Another sync holds the lock."""


class SyncSourceError(DocschatError):
    """A source could not be read (missing repo, branch or folder)."""


class StalePlanError(DocschatError):
    """The rows changed between planning and applying (another sync ran)."""


@dataclass
class SourceReport:
    name: str
    pages: int = 0
    chunks: int = 0
    new: int = 0
    changed: int = 0
    unchanged: int = 0
    deleted: int = 0
    undeclared_pages: int = 0
    commit: str | None = None
    error: str | None = None
    skipped_pages: list[str] = field(default_factory=list)  # could not be read: not in the index


@dataclass
class SyncReport:
    pages: int = 0
    chunks: int = 0
    new: int = 0
    changed: int = 0
    metadata_only: int = 0
    unchanged: int = 0
    deleted: int = 0
    embedded: int = 0
    cache_hits: int = 0
    seconds: float = 0.0
    embedding_model: str | None = None
    sources: list[SourceReport] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def failed(self) -> list[SourceReport]:
        return [s for s in self.sources if s.error]

    @property
    def skipped_pages(self) -> list[str]:
        """Pages that could not be read (named in the warnings), as source:path."""
        return [f"{s.name}:{path}" for s in self.sources for path in s.skipped_pages]

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


# --- the plan (pure) -----------------------------------------------------------------------------

# Columns a chunk can change without its text changing.
_METADATA_FIELDS = ("source", "page", "title", "heading", "breadcrumb", "href", "audiences")


def _metadata(chunk: Chunk) -> tuple[object, ...]:
    return tuple(list(v) if isinstance(v, tuple) else v for v in (getattr(chunk, n) for n in _METADATA_FIELDS))


@dataclass(frozen=True)
class ExistingRow:
    id: str
    source: str
    content_hash: str
    embedding_model: str | None
    has_embedding: bool
    metadata: tuple[object, ...]


@dataclass
class SyncPlan:
    to_embed: list[Chunk] = field(default_factory=list)  # new, or text/model changed
    metadata_only: list[Chunk] = field(default_factory=list)
    delete_ids: list[str] = field(default_factory=list)
    unchanged: int = 0
    counts: dict[str, dict[str, int]] = field(default_factory=dict)  # per source: new/changed/…

    @property
    def writes(self) -> bool:
        return bool(self.to_embed or self.metadata_only or self.delete_ids)


def plan_sync(
    existing: Iterable[ExistingRow],
    chunks: Iterable[Chunk],
    *,
    model: str | None,
    synced_sources: set[str],
    configured_sources: set[str] | None,
) -> SyncPlan:
    """What to write so that the rows of `synced_sources` equal `chunks`.

    Rows of other configured sources (not synced this time, or failed) stay as they are; rows of
    a source not in `configured_sources` (None: keep them) are deleted.
    """
    rows = {row.id: row for row in existing}
    plan = SyncPlan()

    def count(source: str, what: str) -> None:
        per_source = plan.counts.setdefault(source, {"new": 0, "changed": 0, "unchanged": 0, "deleted": 0})
        per_source[what] += 1

    current: set[str] = set()
    for chunk in chunks:
        current.add(chunk.id)
        row = rows.get(chunk.id)
        if row is None:
            count(chunk.source, "new")
            plan.to_embed.append(chunk)
            continue
        model_changed = model is not None and (row.embedding_model != model or not row.has_embedding)
        if row.content_hash != chunk.content_hash or model_changed:
            count(chunk.source, "changed")
            plan.to_embed.append(chunk)
        elif row.metadata != _metadata(chunk):
            count(chunk.source, "changed")
            plan.metadata_only.append(chunk)
        else:
            count(chunk.source, "unchanged")
            plan.unchanged += 1
    for row in rows.values():
        if row.id in current:
            continue
        gone_source = configured_sources is not None and row.source not in configured_sources
        if row.source in synced_sources or gone_source:
            count(row.source, "deleted")
            plan.delete_ids.append(row.id)
    return plan


# --- reading, embedding, staging, switching ------------------------------------------------------

# A batch's rows: those of its pages, and any row holding one of its ids.
_EXISTING_FOR_BATCH = """
select id, source, page, title, heading, breadcrumb, href, audiences, content_hash, embedding_model,
       embedding is not null as has_embedding
from public.docs_section
where (source = $1 and page = any($2::text[])) or id = any($3::text[])
"""

# The commit each synced source was read at, and whether its hrefs hold `{commit}` to fill with it
# when read (sql/functions/docs_source_commit_record.sql): in the switch's transaction.
_RECORD_COMMITS = "select public.docs_source_commit_record($1::text[], $2::text[], $3::boolean[])"


def _insert_statement(table: str, columns: tuple[str, ...]) -> str:
    """`insert into <table> (<columns>) values ($1, …)`: fixed names, every value bound."""
    placeholders = ", ".join(f"${i}" for i in range(1, len(columns) + 1))
    return f"insert into {table} ({', '.join(columns)}) values ({placeholders})"


_STAGE_COLUMNS = ("gen", "id", "kind", "source", "page", "title", "heading", "breadcrumb", "href", "content",
                  "audiences", "content_hash", "embedding", "embedding_model")
_STAGE_INSERT = _insert_statement("public.docs_section_stage", _STAGE_COLUMNS)
_NEW_GENERATION = """
with stale as (
  delete from public.docs_sync_generation
  where touched_at < clock_timestamp() - make_interval(secs => $2)
)
insert into public.docs_sync_generation (gen) values ($1)
"""
_TOUCH_GENERATION = "update public.docs_sync_generation set touched_at = clock_timestamp() where gen = $1"
_DROP_GENERATION = "delete from public.docs_sync_generation where gen = $1"
_INDEX_VERSION = "select version from public.docs_index_version"
# Rows of a synced source whose page was not composed this time (the page is gone, or skipped).
_STAGE_VANISHED_PAGES = """
with staged as (
  insert into public.docs_section_stage (gen, id, kind, source)
  select $1, d.id, 'delete', d.source from public.docs_section d
  where d.source = $2 and not (d.page = any($3::text[]))
  on conflict (gen, id) do nothing
  returning 1
)
select count(*) from staged
"""
# Rows of sources no longer configured, by source.
_STAGE_GONE_SOURCES = """
with staged as (
  insert into public.docs_section_stage (gen, id, kind, source)
  select $1, d.id, 'delete', d.source from public.docs_section d
  where not (d.source = any($2::text[]))
  on conflict (gen, id) do nothing
  returning source
)
select source, count(*)::integer as n from staged group by source order by source
"""
# The page keys of a source whose rows are still those the key was written with: as many, with
# the same xmin (a page whose rows were deleted or written since, by hand, `index clear` or any
# writer, is composed again), each embedded by the sync's model ($2; null: keyword-only, any): a
# page with a row to embed again (the model changed) is composed and planned.
_KNOWN_KEYS = """
select k.page, k.key, k.deps, k.chunks, k.declared, k.warnings
from public.docs_page_key k
left join (
  select page, count(*)::integer as n, sum(xmin::text::bigint)::bigint as x from public.docs_section
  where source = $1 and ($2::text is null or (embedding_model = $2 and embedding is not null))
  group by page
) d on d.page = k.page
where k.source = $1 and coalesce(d.n, 0) = k.chunks and coalesce(d.x, 0) = k.rows_xmin
"""
_STAGE_KEY_COLUMNS = ("gen", "source", "page", "key", "deps", "declared", "warnings")
_STAGE_KEY_INSERT = _insert_statement("public.docs_page_key_stage", _STAGE_KEY_COLUMNS)


def _existing_row(r: asyncpg.Record) -> ExistingRow:
    return ExistingRow(
        r["id"], r["source"], r["content_hash"], r["embedding_model"], r["has_embedding"],
        tuple(list(r[n]) if n == "audiences" else r[n] for n in _METADATA_FIELDS),
    )


async def embed_batch(provider: EmbeddingProvider, batch: list[str], report: SyncReport) -> list[list[float]]:
    """The provider's vectors for `batch`. When it refuses the batch's input (a text longer than
    its model takes: OpenAI-compatible servers refuse rather than truncate), each text is embedded
    alone, and one still refused is embedded from its first half, and so on, with a warning."""
    try:
        return await provider.embed_documents(batch)
    except EmbeddingInputRefusedError:
        if len(batch) == 1 and len(batch[0]) <= MIN_SHORTENED_CHARS:
            raise
    return [await _embed_shortening(provider, text, report) for text in batch]


def _first_line(text: str) -> str:
    return (text.splitlines() or [""])[0][:120]


async def _embed_shortening(provider: EmbeddingProvider, text: str, report: SyncReport) -> list[float]:
    async def embed(shown: str) -> list[float]:
        return (await provider.embed_documents([shown]))[0]

    try:
        vector, shown = await embed_shortening(embed, text)
    except EmbeddingInputRefusedError as exc:
        raise EmbeddingInputRefusedError(
            f"the embedding provider refuses the chunk '{_first_line(text)}' even cut to "
            f"{MIN_SHORTENED_CHARS} characters or fewer: {exc}") from exc
    if shown is not text:
        report.warnings.append(
            f"chunk '{_first_line(text)}': {len(text):,} characters are more than the embedding "
            f"model takes; its vector is of the first {len(shown):,} (its full text is still searched by keyword)")
    return vector


async def embed_texts(
    texts: list[str],
    provider: EmbeddingProvider,
    cache: EmbeddingCache | None,
    report: SyncReport,
    progress: ProgressCallback | None,
    known: dict[str, Vector] | None = None,
) -> dict[str, Vector]:
    """float32 vectors for `texts`: already known, from the cache, else from the provider (in its
    batches). The SQLite cache is read and written in a worker thread, off the event loop."""
    unique = list(dict.fromkeys(texts))
    vectors = {t: known[t] for t in unique if known and t in known}
    wanted = [t for t in unique if t not in vectors]
    cached = await asyncio.to_thread(cache.get_many, provider.model, wanted) if cache and wanted else {}
    report.cache_hits += len(cached)
    vectors.update(cached)
    todo = [t for t in unique if t not in vectors]
    done = len(unique) - len(todo)
    if progress:
        progress(done, len(unique))
    step = max(provider.batch_size, 1)
    for start in range(0, len(todo), step):
        batch = todo[start : start + step]
        embedded = {t: np.asarray(v, dtype=np.float32)
                    for t, v in zip(batch, await embed_batch(provider, batch, report), strict=True)}
        if cache:
            await asyncio.to_thread(cache.put_many, provider.model, embedded)  # kept even if a later batch fails
        vectors.update(embedded)
        report.embedded += len(batch)
        done += len(batch)
        if progress:
            progress(done, len(unique))
    return vectors


def _stage_records(
    gen: uuid.UUID, plan: SyncPlan, vectors: dict[str, Vector], model: str | None, source: str,
) -> list[tuple[object, ...]]:
    records: list[tuple[object, ...]] = []
    for c in plan.to_embed:
        vector = vectors.get(c.embed_text)
        records.append((gen, c.id, "upsert", c.source, c.page, c.title, c.heading, c.breadcrumb, c.href, c.text,
                        list(c.audiences), c.content_hash, vector, model if model and vector is not None else None))
    for c in plan.metadata_only:
        records.append((gen, c.id, "meta", c.source, c.page, c.title, c.heading, c.breadcrumb, c.href, None,
                        list(c.audiences), None, None, None))
    for row_id in plan.delete_ids:
        records.append((gen, row_id, "delete", source, None, None, None, None, None, None, None, None, None, None))
    return records


async def _stage(conn: asyncpg.Connection, gen: uuid.UUID, records: list[tuple[object, ...]]) -> None:
    """One batch into the generation (binary protocol: the vectors go as float32). Not COPY: Postgres
    refuses COPY FROM into a table with row-level security for a role that is not its owner."""
    if records:
        await conn.executemany(_STAGE_INSERT, records)
    await conn.execute(_TOUCH_GENERATION, gen)


async def _lock(conn: asyncpg.Connection, wait_for_lock: bool) -> None:
    if wait_for_lock:
        await conn.execute("select pg_advisory_xact_lock($1)", SYNC_LOCK_KEY)
    elif not await conn.fetchval("select pg_try_advisory_xact_lock($1)", SYNC_LOCK_KEY):
        raise SyncBusyError("another sync is running on this database (advisory lock held); try again when it ends")


async def _switch(
    conn: asyncpg.Connection,
    gen: uuid.UUID,
    commits: dict[str, str],
    configured_sources: list[str] | None,
    kept: dict[str, list[str]],
    fill_hrefs: frozenset[str] = frozenset(),
) -> int:
    """Apply the generation (the caller holds the lock in its transaction and has checked the
    plan is current); the number of staged rows. The page keys go in the same transaction: of
    each source in `kept` (the sources synced, with the pages they skipped) what was staged and
    what was skipped remains. So do the commits, each with whether its source's hrefs hold
    `{commit}` (`fill_hrefs`): readers fill it in the statement that reads the rows, so they see
    the new commit with the new rows or the old with the old."""
    # Rows without statistics (a revision emptied them): the switch cannot update what is not
    # there, so the one full rebuild follows it.
    rebuild = await conn.fetchval(
        "select not exists (select 1 from public.docs_search_stats) and exists (select 1 from public.docs_section)")
    staged = int(await conn.fetchval("select public.docs_sync_switch($1)", gen))
    if rebuild:
        await conn.fetchval("select public.refresh_docs_search_stats()")
    if commits:
        names = sorted(commits)
        await conn.fetchval(_RECORD_COMMITS, names, [commits[n] for n in names], [n in fill_hrefs for n in names])
    if configured_sources is not None:
        await conn.execute("delete from public.docs_source_commit where not (source = any($1::text[]))",
                           configured_sources)
    pairs = [(name, page) for name, pages in kept.items() for page in pages]
    await conn.fetchval("select public.docs_page_key_switch($1, $2, $3, $4, $5)", gen, sorted(kept),
                        [name for name, _ in pairs], [page for _, page in pairs], configured_sources)
    return staged


def _undeclared_warning(source: Source, undeclared: int, pages: int) -> str | None:
    if not undeclared or source.audiences != (DEFAULT_AUDIENCE,):
        return None
    return (
        f"source {source.name!r}: {undeclared} of {pages} pages declare no audience and are internal "
        "(the chat widget does not show them). Declare it in front matter (`audience: public`, or a list), "
        "or set the source's default (`audience` in docschat.toml, DOCS_DEFAULT_AUDIENCE for the single source)."
    )


def compose_sources(sources: Iterable[Source], settings: Settings, report: SyncReport) -> list[ComposeResult]:
    """Compose each source whole; one that cannot be read is named in the report and skipped."""
    composed: list[ComposeResult] = []
    for source in sources:
        source_report = SourceReport(source.name)
        report.sources.append(source_report)
        try:
            result = compose_corpus(source, settings)
        except Exception as exc:  # noqa: BLE001 - one source's failure must not stop the others
            _source_failed(source.name, exc, source_report, report)
            continue
        source_report.pages, source_report.chunks = len(result.pages), len(result.chunks)
        source_report.commit, source_report.undeclared_pages = result.commit, result.undeclared_pages
        source_report.skipped_pages = list(result.skipped_pages)
        report.warnings.extend(f"{source.name}: {w}" for w in result.warnings)
        warning = _undeclared_warning(source, result.undeclared_pages, len(result.pages))
        if warning:
            report.warnings.append(warning)
        composed.append(result)
    return composed


def _source_failed(name: str, exc: BaseException, source_report: SourceReport, report: SyncReport) -> None:
    reason = describe_error(exc)
    source_report.error = reason[:500]
    report.warnings.append(f"source {name!r} was not synced (its rows stay as they were): {reason[:500]}")
    log.warning("sync_source_failed", source=name, error=reason[:200])


def compose_merged(sources: Iterable[Source], settings: Settings) -> tuple[ComposeResult, SyncReport]:
    """Every source composed as the sync composes it (the same warnings; one that cannot be read
    is skipped and named in the report), the results merged into one (`docschat compose`)."""
    report = SyncReport()
    result = ComposeResult.merged(compose_sources(sources, settings, report))
    result.warnings = report.warnings
    return result, report


# --- one sync step, in batches ---------------------------------------------------------------------


@dataclass
class _Stream:
    """One source to sync: `parts()` composes it afresh, in parts of whole pages."""

    name: str
    # Composes the source, skipping the pages whose key in the mapping is unchanged (None: none).
    parts: Callable[[Mapping[str, PageKey] | None], Iterator[ComposeResult]]
    source: Source | None = None  # for the undeclared-audience warning
    warnings_prefix: bool = True  # compose warnings named by source (sync_chunks keeps them as they are)
    keyed: bool = False  # its pages have keys (a source read from git): read the stored ones


@dataclass
class _Step:
    """What one attempt of a step gathers (reset when it plans again)."""

    report: SyncReport
    seen_ids: set[str] = field(default_factory=set)
    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    metadata_only: int = 0
    done: int = 0  # embedding progress over the whole step
    total: int = 0
    kept: dict[str, list[str]] = field(default_factory=dict)  # per source synced: the pages skipped
    full: bool = False  # compose every page (no page skipped for an unchanged key)

    def count(self, source: str, what: str, n: int) -> None:
        per_source = self.counts.setdefault(source, {"new": 0, "changed": 0, "unchanged": 0, "deleted": 0})
        per_source[what] += n


async def _next_part(parts: Iterator[ComposeResult]) -> ComposeResult | None:
    """The next part, composed (git, parsing) in a worker thread: the event loop serves meanwhile."""
    return await asyncio.to_thread(next, parts, None)


def _close_parts(parts: Iterator[ComposeResult]) -> None:
    close = getattr(parts, "close", None)
    if close is not None:
        try:
            close()  # ends the git process of a source left half read
        except ValueError:  # still running in its thread (the sync was cancelled): ends with it
            pass


async def _stage_source(
    pool: asyncpg.Pool, gen: uuid.UUID, stream: _Stream, step: _Step, source_report: SourceReport,
    provider: EmbeddingProvider | None, cache: EmbeddingCache | None, progress: ProgressCallback | None,
) -> bool:
    """Compose, plan, embed and stage one source batch by batch; False when it cannot be read
    (its staged rows are then taken out of the generation: its rows stay as they are)."""
    report = step.report
    model = provider.model if provider else None
    seen_pages: set[str] = set()
    kept: list[str] = []
    undeclared = 0
    known: dict[str, PageKey] | None = None
    if stream.keyed and not step.full:
        async with pool.acquire() as conn:
            known = {r["page"]: PageKey(r["page"], r["key"], tuple(r["deps"]), r["declared"], tuple(r["warnings"]),
                                        r["chunks"]) for r in await conn.fetch(_KNOWN_KEYS, stream.name, model)}
    parts = stream.parts(known)
    # The next part is composed (in its thread) while this one is planned, embedded and staged.
    pending = asyncio.ensure_future(_next_part(parts))
    try:
        while True:
            try:
                part = await pending
            except Exception as exc:  # noqa: BLE001 - one source's failure must not stop the others
                _source_failed(stream.name, exc, source_report, report)
                async with pool.acquire() as conn:
                    await conn.execute("delete from public.docs_section_stage where gen = $1 and source = $2",
                                       gen, stream.name)
                    await conn.execute("delete from public.docs_page_key_stage where gen = $1 and source = $2",
                                       gen, stream.name)
                step.counts.pop(stream.name, None)
                return False
            if part is None:
                break
            pending = asyncio.ensure_future(_next_part(parts))
            source_report.commit = source_report.commit or part.commit
            source_report.pages += len(part.pages)
            source_report.skipped_pages.extend(part.skipped_pages)
            undeclared += part.undeclared_pages
            for page in part.kept:  # not composed: its key is unchanged, its rows stay as they are
                source_report.pages += 1
                source_report.chunks += page.chunks
                undeclared += not page.declared
                step.count(stream.name, "unchanged", page.chunks)
                report.warnings.extend(f"{stream.name}: {w}" if stream.warnings_prefix else w for w in page.warnings)
                kept.append(page.page)
                seen_pages.add(page.page)
            report.warnings.extend(f"{stream.name}: {w}" if stream.warnings_prefix else w for w in part.warnings)
            chunks = []
            for chunk in part.chunks:
                if chunk.id in step.seen_ids:
                    # The last guard before rows are written: one id twice would mix two chunks in one row.
                    report.warnings.extend(drop_duplicate_ids([chunk, chunk])[1])
                    continue
                step.seen_ids.add(chunk.id)
                chunks.append(chunk)
            source_report.chunks += len(chunks)
            pages = {p.path for p in part.pages} | {c.page for c in chunks}
            seen_pages |= pages
            if not chunks and not pages:
                continue
            async with pool.acquire() as conn:
                existing = [_existing_row(r) for r in await conn.fetch(
                    _EXISTING_FOR_BATCH, stream.name, sorted(pages), [c.id for c in chunks])]
            plan = plan_sync(existing, chunks, model=model, synced_sources={stream.name}, configured_sources=None)
            for source, counts in plan.counts.items():
                for what, n in counts.items():
                    step.count(source, what, n)
            step.metadata_only += len(plan.metadata_only)
            vectors: dict[str, Vector] = {}
            if provider is not None and plan.to_embed:
                base_done, base_total = step.done, step.total
                texts = [c.embed_text for c in plan.to_embed]

                def track(done: int, total: int, base_done: int = base_done, base_total: int = base_total) -> None:
                    step.done, step.total = base_done + done, base_total + total
                    if progress:
                        progress(step.done, step.total)

                vectors = await embed_texts(texts, provider, cache, report, track)
            records = _stage_records(gen, plan, vectors, model, stream.name)
            keys = [(gen, stream.name, k.page, k.key, list(k.deps), k.declared, list(k.warnings))
                    for k in part.page_keys]
            async with pool.acquire() as conn:
                if keys:
                    await conn.executemany(_STAGE_KEY_INSERT, keys)
                await _stage(conn, gen, records)
    finally:
        if not pending.done():
            pending.cancel()  # its thread runs on: the generator is closed if it has finished
            await asyncio.wait([pending])
        elif not pending.cancelled():
            pending.exception()  # retrieved: a part after a failure is not of interest
        _close_parts(parts)
    async with pool.acquire() as conn:
        vanished = int(await conn.fetchval(_STAGE_VANISHED_PAGES, gen, stream.name, sorted(seen_pages)))
    step.count(stream.name, "deleted", vanished)
    step.kept[stream.name] = kept
    source_report.undeclared_pages = undeclared
    if stream.source is not None and (warning := _undeclared_warning(stream.source, undeclared,
                                                                       source_report.pages)):
        report.warnings.append(warning)
    return True


async def _sync_step(
    pool: asyncpg.Pool,
    streams: list[_Stream],
    provider: EmbeddingProvider | None,
    report: SyncReport,
    *,
    configured_sources: set[str] | None,
    cache: EmbeddingCache | None = None,
    progress: ProgressCallback | None = None,
    wait_for_lock: bool = False,
    full: bool = False,
) -> SyncReport:
    """Stage every stream into a new generation, then switch it in one short transaction; plan
    again (compose included) if another writer changed the index meanwhile. `full`: compose every
    page, even those whose key is unchanged."""
    configured = sorted(configured_sources) if configured_sources is not None else None
    fill_hrefs = frozenset(s.name for s in streams if s.source is not None and links_at_commit(s.source))
    warnings_before = len(report.warnings)
    for attempt in range(1, MAX_PLAN_ATTEMPTS + 1):
        del report.warnings[warnings_before:]
        # Planning again means another writer changed the index meanwhile: its rows may no longer be
        # what the page keys say, so every page is composed (design/scale-sync.md).
        step = _Step(report, full=full or attempt > 1)
        source_reports = {stream.name: _source_report(report, stream.name) for stream in streams}
        gen = uuid.uuid4()
        async with pool.acquire() as conn:
            await conn.execute(_NEW_GENERATION, gen, float(STALE_GENERATION_SECONDS))
            planned_at = await conn.fetchval(_INDEX_VERSION)
        try:
            synced = [stream.name for stream in streams
                      if await _stage_source(pool, gen, stream, step, source_reports[stream.name], provider, cache,
                                             progress)]
            async with pool.acquire() as conn:
                if configured is not None:
                    for row in await conn.fetch(_STAGE_GONE_SOURCES, gen, configured):
                        step.count(row["source"], "deleted", row["n"])
                commits = {name: r.commit for name, r in source_reports.items() if name in synced and r.commit}
                async with conn.transaction():
                    await _lock(conn, wait_for_lock)
                    if await conn.fetchval(_INDEX_VERSION) != planned_at:
                        raise StalePlanError("the index changed while this sync was embedding")
                    await _switch(conn, gen, commits, configured,
                                  {name: step.kept.get(name, []) for name in synced}, fill_hrefs)
            break
        except StalePlanError:
            if attempt == MAX_PLAN_ATTEMPTS:
                raise SyncBusyError("the index kept changing while this sync ran (other syncs); try again") from None
            log.info("sync_replanning", attempt=attempt)
        finally:
            async with pool.acquire() as conn:
                await conn.execute(_DROP_GENERATION, gen)
    if cache:
        report.warnings.extend(cache.warnings)
    report.pages = sum(r.pages for r in report.sources)
    report.chunks = sum(r.chunks for r in report.sources)
    report.new = sum(c["new"] for c in step.counts.values())
    report.changed = sum(c["changed"] for c in step.counts.values())
    report.metadata_only = step.metadata_only
    report.unchanged = sum(c["unchanged"] for c in step.counts.values())
    report.deleted = sum(c["deleted"] for c in step.counts.values())
    by_name = {s.name: s for s in report.sources}
    for name, counts in step.counts.items():
        source_report = by_name.get(name)
        if source_report is None:  # a source removed from the config: its deletions
            source_report = SourceReport(name)
            report.sources.append(source_report)
        for key, value in counts.items():
            setattr(source_report, key, value)
    return report


def _source_report(report: SyncReport, name: str) -> SourceReport:
    """The report's entry for `name`, made fresh (or added) for this attempt."""
    fresh = SourceReport(name)
    for index, existing in enumerate(report.sources):
        if existing.name == name:
            report.sources[index] = fresh
            return fresh
    report.sources.append(fresh)
    return fresh


def _in_parts(composed: ComposeResult, source: str) -> Iterator[ComposeResult]:
    """An in-memory result's chunks and pages of `source`, in parts of whole pages (a page with
    no chunk goes with the last part)."""
    pages = {p.path: p for p in composed.pages if p.source == source}
    part = ComposeResult()

    def finish(part: ComposeResult) -> ComposeResult:
        part.pages = [pages.pop(path) for path in dict.fromkeys(c.page for c in part.chunks) if path in pages]
        return part

    for chunk in composed.chunks:
        if chunk.source != source:
            continue
        if len(part.chunks) >= BATCH_CHUNKS and part.chunks[-1].page != chunk.page:
            yield finish(part)
            part = ComposeResult()
        part.chunks.append(chunk)
    last = finish(part)
    last.pages.extend(pages.values())
    yield last


async def sync_sources(
    pool: asyncpg.Pool,
    config: SourcesConfig,
    settings: Settings,
    provider: EmbeddingProvider | None,
    *,
    only: str | None = None,
    cache: EmbeddingCache | None = None,
    progress: ProgressCallback | None = None,
    wait_for_lock: bool = False,
    full: bool = False,
) -> SyncReport:
    """Sync every configured source (or `only` one); rows of sources no longer configured go.
    A page whose key (what composing it read) is unchanged is not composed again, unless `full`."""
    started = time.perf_counter()
    report = SyncReport(embedding_model=provider.model if provider else None)
    sources = [config.source(only)] if only else list(config.sources)
    outcome = "failed"

    def stream(source: Source) -> _Stream:
        return _Stream(source.name,
                       lambda known: compose_batches(source, settings, batch_chunks=BATCH_CHUNKS, known=known),
                       source, keyed=True)

    try:
        await _sync_step(
            pool, [stream(s) for s in sources], provider, report,
            configured_sources=None if only else {s.name for s in config.sources},
            cache=cache, progress=progress, wait_for_lock=wait_for_lock, full=full,
        )
        outcome = "failed" if report.failed else "ok"
    except SyncBusyError:
        outcome = "busy"
        raise
    finally:
        record_sync(outcome, time.perf_counter() - started)
    report.seconds = round(time.perf_counter() - started, 3)
    log.info("sync_done", **{k: v for k, v in report.to_dict().items() if k not in ("warnings", "sources")},
             failed_sources=[s.name for s in report.failed])
    return report


async def sync_corpus(
    pool: asyncpg.Pool,
    source: Source | DocsSource,
    settings: Settings,
    provider: EmbeddingProvider | None,
    *,
    cache: EmbeddingCache | None = None,
    progress: ProgressCallback | None = None,
    wait_for_lock: bool = False,
) -> SyncReport:
    """Sync exactly one source: the index then holds its pages and nothing else."""
    if isinstance(source, DocsSource):
        source = source.to_source(settings)
    report = await sync_sources(
        pool, SourcesConfig((source,)), settings, provider, cache=cache, progress=progress,
        wait_for_lock=wait_for_lock,
    )
    if report.failed:
        raise SyncSourceError(report.failed[0].error or "the source could not be read")
    return report


async def sync_chunks(
    pool: asyncpg.Pool,
    composed: ComposeResult,
    provider: EmbeddingProvider | None,
    *,
    cache: EmbeddingCache | None = None,
    progress: ProgressCallback | None = None,
    wait_for_lock: bool = False,
) -> SyncReport:
    """Sync already composed chunks (tests and benchmarks compose in memory): only their sources remain."""
    report = SyncReport(embedding_model=provider.model if provider else None)
    sources = sorted({c.source for c in composed.chunks} | {p.source for p in composed.pages}) or ["docs"]
    started = time.perf_counter()
    streams = [_Stream(name, lambda _known, name=name: _in_parts(composed, name),  # type: ignore[misc]
                       warnings_prefix=False)
               for name in sources]
    await _sync_step(pool, streams, provider, report, configured_sources=set(sources), cache=cache,
                     progress=progress, wait_for_lock=wait_for_lock)
    report.warnings[:0] = composed.warnings
    report.seconds = round(time.perf_counter() - started, 3)
    return report
