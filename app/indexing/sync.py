"""Sync: compose every source in batches → a pure plan per batch → embed → stage; one short switch.

Each step lives in its module, with its SQL:
- compose: a source is composed in parts of whole pages (about BATCH_CHUNKS chunks:
  compose_batches reads the files from git one at a time), in a worker thread, off the event loop;
  a page whose key (what composing it read) is unchanged is not composed again.
- plan (`sync_plan`): pure, from the rows in the database for the batch's pages and the batch's
  chunks: what to embed, what changed only in metadata, what vanished.
- embed (`sync_embed`): outside any transaction and lock; it is the slow part.
- stage (`sync_stage`): each batch's plan into this sync's generation of an unlogged scratch
  table; what Python holds is one batch.
- apply (`sync_apply`): when every source is staged, one short transaction under the advisory
  lock checks the index did not change since planning (else the sync plans again) and switches
  the generation in. A reader sees every source as it was before or as it is after, never half of
  one; a sync killed before its switch leaves only its staged generation, deleted by a later sync
  (design/scale-sync.md).

This module runs those steps for each source. A source that cannot be read keeps its rows as they
were; the others sync; the report names it. A source no longer configured loses its rows.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

import asyncpg

from app.config import Settings
from app.corpus.chunker import Chunk, drop_duplicate_ids
from app.corpus.code_source import links_at_commit
from app.corpus.compose import ComposeResult, PageKey, compose_batches
from app.corpus.sources import Source, SourcesConfig
from app.embeddings.base import EmbeddingProvider
from app.embeddings.cache import EmbeddingCache
from app.indexing import sync_apply
from app.indexing.sync_apply import SYNC_LOCK_KEY, StalePlanError, SyncBusyError
from app.indexing.sync_embed import ProgressCallback, Vector, embed_texts
from app.indexing.sync_plan import existing_rows, known_keys, plan_sync
from app.indexing.sync_report import SourceReport, SyncReport, compose_merged, source_failed, undeclared_warning
from app.indexing.sync_stage import (
    drop_generation,
    new_generation,
    stage_batch,
    stage_gone_sources,
    stage_page_keys,
    stage_records,
    stage_vanished_pages,
    unstage_source,
)
from app.logging import get_logger
from app.metrics import record_sync

__all__ = [
    "BATCH_CHUNKS", "SYNC_LOCK_KEY", "ProgressCallback", "SourceReport", "Stream", "SyncBusyError", "SyncReport",
    "compose_merged", "sync_sources", "sync_streams",
]

log = get_logger(__name__)

MAX_PLAN_ATTEMPTS = 3
# Chunks composed, planned, embedded and staged together: what a sync holds in memory at a time.
BATCH_CHUNKS = 2000


@dataclass
class Stream:
    """One source to sync: `parts()` composes it afresh, in parts of whole pages."""

    name: str
    # Composes the source, skipping the pages whose key in the mapping is unchanged (None: none).
    parts: Callable[[Mapping[str, PageKey] | None], Iterator[ComposeResult]]
    source: Source | None = None  # for the undeclared-audience warning
    warnings_prefix: bool = True  # compose warnings named by source (in-memory corpora keep them as they are)
    keyed: bool = False  # its pages have keys (a source read from git): read the stored ones


@dataclass
class _Embedder:
    """The provider (None: keyword-only), its cache, and where embedding progress goes."""

    provider: EmbeddingProvider | None
    cache: EmbeddingCache | None
    progress: ProgressCallback | None

    @property
    def model(self) -> str | None:
        return self.provider.model if self.provider else None


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


@dataclass
class _SourceState:
    """What staging one source gathers over its parts."""

    stream: Stream
    report: SourceReport
    seen_pages: set[str] = field(default_factory=set)
    kept: list[str] = field(default_factory=list)  # pages not composed: their key is unchanged
    undeclared: int = 0


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


def _take_part(part: ComposeResult, state: _SourceState, step: _Step) -> tuple[list[Chunk], set[str]]:
    """Count a composed part into the reports; its chunks to plan (an id seen before dropped) and
    the pages they are of."""
    stream, source_report, report = state.stream, state.report, step.report

    def named(warning: str) -> str:
        return f"{stream.name}: {warning}" if stream.warnings_prefix else warning

    source_report.commit = source_report.commit or part.commit
    source_report.pages += len(part.pages)
    source_report.skipped_pages.extend(part.skipped_pages)
    state.undeclared += part.undeclared_pages
    for page in part.kept:  # not composed: its key is unchanged, its rows stay as they are
        source_report.pages += 1
        source_report.chunks += page.chunks
        state.undeclared += not page.declared
        step.count(stream.name, "unchanged", page.chunks)
        report.warnings.extend(named(w) for w in page.warnings)
        state.kept.append(page.page)
        state.seen_pages.add(page.page)
    report.warnings.extend(named(w) for w in part.warnings)
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
    state.seen_pages |= pages
    return chunks, pages


async def _stage_part(
    pool: asyncpg.Pool, gen: uuid.UUID, name: str, part: ComposeResult, chunks: list[Chunk], pages: set[str],
    step: _Step, embedder: _Embedder,
) -> None:
    """Plan one part against the rows there, embed what it needs, stage it with its page keys."""
    async with pool.acquire() as conn:
        existing = await existing_rows(conn, name, pages, chunks)
    plan = plan_sync(existing, chunks, model=embedder.model, synced_sources={name}, configured_sources=None)
    for source, counts in plan.counts.items():
        for what, n in counts.items():
            step.count(source, what, n)
    step.metadata_only += len(plan.metadata_only)
    vectors: dict[str, Vector] = {}
    if embedder.provider is not None and plan.to_embed:
        base_done, base_total = step.done, step.total

        def track(done: int, total: int) -> None:
            step.done, step.total = base_done + done, base_total + total
            if embedder.progress:
                embedder.progress(step.done, step.total)

        vectors = await embed_texts([c.embed_text for c in plan.to_embed], embedder.provider, embedder.cache,
                                    step.report, track)
    records = stage_records(gen, plan, vectors, embedder.model, name)
    async with pool.acquire() as conn:
        await stage_page_keys(conn, gen, name, part.page_keys)
        await stage_batch(conn, gen, records)


async def _stage_source(
    pool: asyncpg.Pool, gen: uuid.UUID, stream: Stream, step: _Step, source_report: SourceReport,
    embedder: _Embedder,
) -> bool:
    """Compose, plan, embed and stage one source batch by batch; False when it cannot be read
    (its staged rows are then taken out of the generation: its rows stay as they are)."""
    state = _SourceState(stream, source_report)
    known: dict[str, PageKey] | None = None
    if stream.keyed and not step.full:
        async with pool.acquire() as conn:
            known = await known_keys(conn, stream.name, embedder.model)
    parts = stream.parts(known)
    # The next part is composed (in its thread) while this one is planned, embedded and staged.
    pending = asyncio.ensure_future(_next_part(parts))
    try:
        while True:
            try:
                part = await pending
            except Exception as exc:  # noqa: BLE001 - one source's failure must not stop the others
                source_failed(stream.name, exc, source_report, step.report)
                async with pool.acquire() as conn:
                    await unstage_source(conn, gen, stream.name)
                step.counts.pop(stream.name, None)
                return False
            if part is None:
                break
            pending = asyncio.ensure_future(_next_part(parts))
            chunks, pages = _take_part(part, state, step)
            if chunks or pages:
                await _stage_part(pool, gen, stream.name, part, chunks, pages, step, embedder)
    finally:
        if not pending.done():
            pending.cancel()  # its thread runs on: the generator is closed if it has finished
            await asyncio.wait([pending])
        elif not pending.cancelled():
            pending.exception()  # retrieved: a part after a failure is not of interest
        _close_parts(parts)
    async with pool.acquire() as conn:
        step.count(stream.name, "deleted", await stage_vanished_pages(conn, gen, stream.name, state.seen_pages))
    step.kept[stream.name] = state.kept
    source_report.undeclared_pages = state.undeclared
    if stream.source is not None and (warning := undeclared_warning(stream.source, state.undeclared,
                                                                      source_report.pages)):
        step.report.warnings.append(warning)
    return True


async def sync_streams(
    pool: asyncpg.Pool,
    streams: list[Stream],
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
    embedder = _Embedder(provider, cache, progress)
    warnings_before = len(report.warnings)
    for attempt in range(1, MAX_PLAN_ATTEMPTS + 1):
        del report.warnings[warnings_before:]
        # Planning again means another writer changed the index meanwhile: its rows may no longer be
        # what the page keys say, so every page is composed (design/page-keys.md).
        step = _Step(report, full=full or attempt > 1)
        source_reports = {stream.name: _source_report(report, stream.name) for stream in streams}
        gen = uuid.uuid4()
        async with pool.acquire() as conn:
            await new_generation(conn, gen)
            planned_at = await sync_apply.index_version(conn)
        try:
            synced = [stream.name for stream in streams
                      if await _stage_source(pool, gen, stream, step, source_reports[stream.name], embedder)]
            async with pool.acquire() as conn:
                if configured is not None:
                    for source, n in (await stage_gone_sources(conn, gen, configured)).items():
                        step.count(source, "deleted", n)
                await sync_apply.apply_generation(
                    conn, gen, planned_at, wait_for_lock=wait_for_lock,
                    commits={name: r.commit for name, r in source_reports.items() if name in synced and r.commit},
                    configured_sources=configured, kept={name: step.kept.get(name, []) for name in synced},
                    fill_hrefs=fill_hrefs)
            break
        except StalePlanError:
            if attempt == MAX_PLAN_ATTEMPTS:
                raise SyncBusyError("the index kept changing while this sync ran (other syncs); try again") from None
            log.info("sync_replanning", attempt=attempt)
        finally:
            async with pool.acquire() as conn:
                await drop_generation(conn, gen)
    if cache:
        report.warnings.extend(cache.warnings)
    _sum_up(report, step)
    return report


def _sum_up(report: SyncReport, step: _Step) -> None:
    """The report's totals and per-source counts, from the attempt that switched."""
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


def _source_report(report: SyncReport, name: str) -> SourceReport:
    """The report's entry for `name`, made fresh (or added) for this attempt."""
    fresh = SourceReport(name)
    for index, existing in enumerate(report.sources):
        if existing.name == name:
            report.sources[index] = fresh
            return fresh
    report.sources.append(fresh)
    return fresh


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

    def stream(source: Source) -> Stream:
        return Stream(source.name,
                      lambda known: compose_batches(source, settings, batch_chunks=BATCH_CHUNKS, known=known),
                      source, keyed=True)

    try:
        await sync_streams(
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
