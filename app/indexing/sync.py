"""Sync: compose every source → a pure plan → embed (no lock, no transaction) → one short transaction.

- `plan_sync` is pure: from the rows in the database and the composed chunks it decides what to
  embed, what changed only in metadata (an audience, a title), what vanished.
- Embedding runs outside any transaction and lock: it is the slow part.
- `apply_plan` takes the advisory lock in one transaction, checks that the rows it planned from
  are unchanged (another sync may have run meanwhile; then the plan is made again), and writes.

A source that cannot be read keeps its rows as they were; the others sync; the report names it.
A source no longer configured loses its rows.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field

import asyncpg

from app.config import Settings
from app.corpus.chunker import Chunk, drop_duplicate_ids
from app.corpus.compose import ComposeResult, DocsSource, compose_corpus
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

ProgressCallback = Callable[[int, int], None]


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
    metadata_hash: bytes = b""  # sha256 of the metadata columns, as _VERSIONS computes it

    @property
    def version(self) -> tuple[object, ...]:
        """What a plan relies on: if this differs at apply time, the plan is stale. The metadata
        counts: a plan leaves a row it found unchanged as it is, so had another sync (of another
        commit) made the page public meanwhile, this one would leave it public against its commit."""
        return (self.content_hash, self.embedding_model, self.has_embedding, self.metadata_hash)


@dataclass
class SyncPlan:
    to_embed: list[Chunk] = field(default_factory=list)  # new, or text/model changed
    metadata_only: list[Chunk] = field(default_factory=list)
    delete_ids: list[str] = field(default_factory=list)
    unchanged: int = 0
    counts: dict[str, dict[str, int]] = field(default_factory=dict)  # per source: new/changed/…
    planned_from: dict[str, tuple[object, ...]] = field(default_factory=dict)  # id → ExistingRow.version
    # The commit each synced source was read at, written with the rows (code hrefs link to it, the
    # model's read_file reads it); sources not in `configured_sources` lose theirs (None: keep).
    commits: dict[str, str] = field(default_factory=dict)
    configured_sources: list[str] | None = None

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
    commits: dict[str, str] | None = None,
) -> SyncPlan:
    """What to write so that the rows of `synced_sources` equal `chunks`, and their `commits`.

    Rows of other configured sources (not synced this time, or failed) stay as they are; rows of
    a source not in `configured_sources` (None: keep them) are deleted.
    """
    rows = {row.id: row for row in existing}
    plan = SyncPlan(
        planned_from={row.id: row.version for row in rows.values()}, commits=dict(commits or {}),
        configured_sources=sorted(configured_sources) if configured_sources is not None else None,
    )

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


# --- reading, embedding, applying ----------------------------------------------------------------

# The metadata's hash (sha256: md5 fails on a FIPS-mode server) is computed by Postgres, the same
# expression (_METADATA_HASH) in both statements, so that the check under the lock (_VERSIONS) reads one short
# column instead of every title and breadcrumb: 0.2 s at 100k rows, against 1 s.
_METADATA_HASH = (
    "sha256(convert_to(row(source, page, title, heading, breadcrumb, href, audiences)::text, 'UTF8'))"
    " as metadata_hash"
)
_EXISTING = """
select id, source, page, title, heading, breadcrumb, href, audiences, content_hash, embedding_model,
       embedding is not null as has_embedding,
       """ + _METADATA_HASH + """
from public.docs_section
"""
_VERSIONS = """
select id, content_hash, embedding_model, embedding is not null as has_embedding,
       """ + _METADATA_HASH + """
from public.docs_section
"""

_RECORD_COMMIT = """
insert into public.docs_source_commit (source, commit) values ($1, $2)
on conflict (source) do update set commit = excluded.commit, synced_at = now()
"""

_UPSERT = """
insert into public.docs_section
  (id, source, page, title, heading, breadcrumb, href, content, audiences, content_hash, embedding, embedding_model)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
on conflict (id) do update set
  source = excluded.source, page = excluded.page, title = excluded.title, heading = excluded.heading,
  breadcrumb = excluded.breadcrumb, href = excluded.href, content = excluded.content,
  audiences = excluded.audiences, content_hash = excluded.content_hash,
  embedding = excluded.embedding, embedding_model = excluded.embedding_model, updated_at = now()
"""

# $2… follow _METADATA_FIELDS.
_UPDATE_METADATA = """
update public.docs_section
set source = $2, page = $3, title = $4, heading = $5, breadcrumb = $6, href = $7, audiences = $8,
    updated_at = now()
where id = $1
"""


async def read_existing(conn: asyncpg.Connection) -> list[ExistingRow]:
    return [
        ExistingRow(
            r["id"], r["source"], r["content_hash"], r["embedding_model"], r["has_embedding"],
            tuple(list(r[n]) if n == "audiences" else r[n] for n in _METADATA_FIELDS), r["metadata_hash"],
        )
        for r in await conn.fetch(_EXISTING)
    ]


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
    known: dict[str, list[float]] | None = None,
) -> dict[str, list[float]]:
    """Vectors for `texts`: already known, from the cache, else from the provider (in its batches)."""
    unique = list(dict.fromkeys(texts))
    vectors = {t: known[t] for t in unique if known and t in known}
    cached = cache.get_many(provider.model, [t for t in unique if t not in vectors]) if cache else {}
    report.cache_hits += len(cached)
    vectors.update(cached)
    todo = [t for t in unique if t not in vectors]
    done = len(unique) - len(todo)
    if progress:
        progress(done, len(unique))
    step = max(provider.batch_size, 1)
    for start in range(0, len(todo), step):
        batch = todo[start : start + step]
        embedded = dict(zip(batch, await embed_batch(provider, batch, report), strict=True))
        if cache:
            cache.put_many(provider.model, embedded)  # kept even if a later batch fails
        vectors.update(embedded)
        report.embedded += len(batch)
        done += len(batch)
        if progress:
            progress(done, len(unique))
    return vectors


async def apply_plan(
    conn: asyncpg.Connection,
    plan: SyncPlan,
    vectors: dict[str, list[float]],
    model: str | None,
    *,
    wait_for_lock: bool = False,
) -> None:
    """One transaction under the advisory lock; StalePlanError if the planned-from rows changed."""
    async with conn.transaction():
        if wait_for_lock:
            await conn.execute("select pg_advisory_xact_lock($1)", SYNC_LOCK_KEY)
        elif not await conn.fetchval("select pg_try_advisory_xact_lock($1)", SYNC_LOCK_KEY):
            raise SyncBusyError("another sync is running on this database (advisory lock held); try again when it ends")
        now = {
            r["id"]: (r["content_hash"], r["embedding_model"], r["has_embedding"], r["metadata_hash"])
            for r in await conn.fetch(_VERSIONS)
        }
        if now != plan.planned_from:
            raise StalePlanError("the index changed while this sync was embedding")
        if plan.to_embed:
            await conn.executemany(
                _UPSERT,
                [
                    (c.id, c.source, c.page, c.title, c.heading, c.breadcrumb, c.href, c.text, list(c.audiences),
                     c.content_hash, vectors.get(c.embed_text), model if model and c.embed_text in vectors else None)
                    for c in plan.to_embed
                ],
            )
        if plan.metadata_only:
            await conn.executemany(_UPDATE_METADATA, [(c.id, *_metadata(c)) for c in plan.metadata_only])
        if plan.delete_ids:
            await conn.execute("delete from public.docs_section where id = any($1::text[])", plan.delete_ids)
        if plan.writes or not await conn.fetchval("select exists (select 1 from public.docs_search_stats)"):
            await conn.fetchval("select public.refresh_docs_search_stats()")
        if plan.commits:
            await conn.executemany(_RECORD_COMMIT, sorted(plan.commits.items()))
        if plan.configured_sources is not None:
            await conn.execute("delete from public.docs_source_commit where not (source = any($1::text[]))",
                               plan.configured_sources)


def _undeclared_warning(source: Source, undeclared: int, pages: int) -> str | None:
    if not undeclared or source.audiences != (DEFAULT_AUDIENCE,):
        return None
    return (
        f"source {source.name!r}: {undeclared} of {pages} pages declare no audience and are internal "
        "(the chat widget does not show them). Declare it in front matter (`audience: public`, or a list), "
        "or set the source's default (`audience` in docschat.toml, DOCS_DEFAULT_AUDIENCE for the single source)."
    )


def compose_sources(sources: Iterable[Source], settings: Settings, report: SyncReport) -> list[ComposeResult]:
    """Compose each source; one that cannot be read is named in the report and skipped."""
    composed: list[ComposeResult] = []
    for source in sources:
        source_report = SourceReport(source.name)
        report.sources.append(source_report)
        try:
            result = compose_corpus(source, settings)
        except Exception as exc:  # noqa: BLE001 - one source's failure must not stop the others
            reason = describe_error(exc)
            source_report.error = reason[:500]
            report.warnings.append(f"source {source.name!r} was not synced (its rows stay as they were): {reason[:500]}")
            log.warning("sync_source_failed", source=source.name, error=reason[:200])
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



def compose_merged(sources: Iterable[Source], settings: Settings) -> tuple[ComposeResult, SyncReport]:
    """Every source composed as the sync composes it (the same warnings; one that cannot be read
    is skipped and named in the report), the results merged into one (`docschat compose`)."""
    report = SyncReport()
    result = ComposeResult.merged(compose_sources(sources, settings, report))
    result.warnings = report.warnings
    return result, report

async def sync_composed(
    pool: asyncpg.Pool,
    composed: list[ComposeResult],
    provider: EmbeddingProvider | None,
    report: SyncReport,
    *,
    synced_sources: set[str],
    configured_sources: set[str] | None,
    cache: EmbeddingCache | None = None,
    progress: ProgressCallback | None = None,
    wait_for_lock: bool = False,
) -> SyncReport:
    """Plan, embed outside any transaction, apply in one; plan again if another sync got there first."""
    # Ids are unique within a source (compose_corpus) and start with its name: this is the last
    # guard before rows are written, where one id twice would mix two chunks in one row.
    chunks, duplicates = drop_duplicate_ids([chunk for result in composed for chunk in result.chunks])
    report.warnings.extend(duplicates)
    commits = {s.name: s.commit for s in report.sources if s.commit and not s.error}
    model = provider.model if provider else None
    vectors: dict[str, list[float]] = {}
    for attempt in range(1, MAX_PLAN_ATTEMPTS + 1):
        async with pool.acquire() as conn:
            existing = await read_existing(conn)
        plan = plan_sync(existing, chunks, model=model, synced_sources=synced_sources,
                         configured_sources=configured_sources, commits=commits)
        if provider is not None and plan.to_embed:
            vectors = await embed_texts([c.embed_text for c in plan.to_embed], provider, cache, report, progress,
                                        known=vectors)
        try:
            async with pool.acquire() as conn:
                await apply_plan(conn, plan, vectors, model, wait_for_lock=wait_for_lock)
            break
        except StalePlanError:
            if attempt == MAX_PLAN_ATTEMPTS:
                raise SyncBusyError("the index kept changing while this sync ran (other syncs); try again") from None
            log.info("sync_replanning", attempt=attempt)
    if cache:
        report.warnings.extend(cache.warnings)
    report.pages = sum(len(r.pages) for r in composed)
    report.chunks = len(chunks)
    report.new = sum(c["new"] for c in plan.counts.values())
    report.changed = sum(c["changed"] for c in plan.counts.values())
    report.metadata_only = len(plan.metadata_only)
    report.unchanged = plan.unchanged
    report.deleted = len(plan.delete_ids)
    by_name = {s.name: s for s in report.sources}
    for name, counts in plan.counts.items():
        source_report = by_name.setdefault(name, SourceReport(name))
        if source_report not in report.sources:
            report.sources.append(source_report)  # a source removed from the config: its deletions
        for key, value in counts.items():
            setattr(source_report, key, value)
    return report


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
) -> SyncReport:
    """Sync every configured source (or `only` one); rows of sources no longer configured go."""
    started = time.perf_counter()
    report = SyncReport(embedding_model=provider.model if provider else None)
    sources = [config.source(only)] if only else list(config.sources)
    outcome = "failed"
    try:
        composed = compose_sources(sources, settings, report)
        synced = {r.name for r in report.sources if not r.error}
        configured = None if only else {s.name for s in config.sources}
        await sync_composed(
            pool, composed, provider, report, synced_sources=synced, configured_sources=configured,
            cache=cache, progress=progress, wait_for_lock=wait_for_lock,
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
    sources = {c.source for c in composed.chunks} or {"docs"}
    started = time.perf_counter()
    await sync_composed(
        pool, [composed], provider, report, synced_sources=sources, configured_sources=sources,
        cache=cache, progress=progress, wait_for_lock=wait_for_lock,
    )
    report.warnings[:0] = composed.warnings
    report.seconds = round(time.perf_counter() - started, 3)
    return report
