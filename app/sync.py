"""sync_corpus: compose → compare hashes → embed what is new or changed → upsert → delete vanished.

Every write happens in one transaction under an advisory lock: a failed or killed sync leaves the
previous index whole, and two syncs never interleave.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

import asyncpg

from app.config import Settings
from app.corpus.chunker import Chunk
from app.corpus.compose import ComposeResult, DocsSource, compose_corpus
from app.embeddings.base import EmbeddingProvider
from app.embeddings.cache import EmbeddingCache
from app.errors import DocschatError
from app.logging import get_logger
from app.metrics import record_sync

log = get_logger(__name__)

# pg_advisory_xact_lock key: any fixed 64-bit number, shared by every docschat sync.
SYNC_LOCK_KEY = 0x646F6373_63686174  # "docschat"

ProgressCallback = Callable[[int, int], None]


class SyncBusyError(DocschatError):
    """Another sync holds the lock."""


@dataclass
class SyncReport:
    pages: int = 0
    chunks: int = 0
    new: int = 0
    changed: int = 0
    unchanged: int = 0
    deleted: int = 0
    embedded: int = 0
    cache_hits: int = 0
    seconds: float = 0.0
    embedding_model: str | None = None
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


_EXISTING = """
select id, page, title, heading, breadcrumb, href, public, content_hash, embedding_model,
       embedding is not null as has_embedding
from public.docs_section
"""

_UPSERT = """
insert into public.docs_section
  (id, page, title, heading, breadcrumb, href, content, public, content_hash, embedding, embedding_model)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
on conflict (id) do update set
  page = excluded.page, title = excluded.title, heading = excluded.heading,
  breadcrumb = excluded.breadcrumb, href = excluded.href, content = excluded.content,
  public = excluded.public, content_hash = excluded.content_hash,
  embedding = excluded.embedding, embedding_model = excluded.embedding_model, updated_at = now()
"""

_UPDATE_METADATA = """
update public.docs_section
set page = $2, title = $3, heading = $4, breadcrumb = $5, href = $6, public = $7, updated_at = now()
where id = $1
"""


# Columns a chunk can change without its text changing; the order of _UPDATE_METADATA's $2…$7.
_METADATA_FIELDS = ("page", "title", "heading", "breadcrumb", "href", "public")


def _metadata(chunk: Chunk) -> tuple[object, ...]:
    return tuple(getattr(chunk, name) for name in _METADATA_FIELDS)


async def _embed_missing(
    texts: list[str],
    provider: EmbeddingProvider,
    cache: EmbeddingCache | None,
    report: SyncReport,
    progress: ProgressCallback | None,
) -> dict[str, list[float]]:
    """Vectors for `texts`: from the cache when there, else from the provider (in its batches)."""
    unique = list(dict.fromkeys(texts))
    vectors = cache.get_many(provider.model, unique) if cache else {}
    report.cache_hits = len(vectors)
    todo = [t for t in unique if t not in vectors]
    done = len(vectors)
    if progress:
        progress(done, len(unique))
    step = max(provider.batch_size, 1)
    for start in range(0, len(todo), step):
        batch = todo[start : start + step]
        embedded = dict(zip(batch, await provider.embed_documents(batch), strict=True))
        if cache:
            cache.put_many(provider.model, embedded)  # kept even if a later batch fails
        vectors.update(embedded)
        report.embedded += len(batch)
        done += len(batch)
        if progress:
            progress(done, len(unique))
    return vectors


async def sync_chunks(
    conn: asyncpg.Connection,
    composed: ComposeResult,
    provider: EmbeddingProvider | None,
    *,
    cache: EmbeddingCache | None = None,
    progress: ProgressCallback | None = None,
    wait_for_lock: bool = False,
) -> SyncReport:
    """Bring docs_section in line with `composed`, in one transaction on `conn`."""
    started = time.perf_counter()
    report = SyncReport(
        pages=len(composed.pages), chunks=len(composed.chunks),
        embedding_model=provider.model if provider else None, warnings=list(composed.warnings),
    )
    async with conn.transaction():
        if wait_for_lock:
            await conn.execute("select pg_advisory_xact_lock($1)", SYNC_LOCK_KEY)
        elif not await conn.fetchval("select pg_try_advisory_xact_lock($1)", SYNC_LOCK_KEY):
            raise SyncBusyError("another sync is running on this database (advisory lock held); try again when it ends")

        existing = {row["id"]: row for row in await conn.fetch(_EXISTING)}
        to_embed: list[Chunk] = []
        metadata_only: list[Chunk] = []
        for chunk in composed.chunks:
            row = existing.get(chunk.id)
            if row is None:
                report.new += 1
                to_embed.append(chunk)
                continue
            content_changed = row["content_hash"] != chunk.content_hash
            model_changed = provider is not None and (
                row["embedding_model"] != provider.model or not row["has_embedding"]
            )
            if content_changed or model_changed:
                report.changed += 1
                to_embed.append(chunk)
            elif tuple(row[name] for name in _METADATA_FIELDS) != _metadata(chunk):
                report.changed += 1
                metadata_only.append(chunk)
            else:
                report.unchanged += 1

        vectors: dict[str, list[float]] = {}
        if provider is not None and to_embed:
            vectors = await _embed_missing([c.embed_text for c in to_embed], provider, cache, report, progress)
        if cache:
            report.warnings.extend(cache.warnings)

        if to_embed:
            await conn.executemany(
                _UPSERT,
                [
                    (
                        c.id, c.page, c.title, c.heading, c.breadcrumb, c.href, c.text, c.public, c.content_hash,
                        vectors.get(c.embed_text), provider.model if provider else None,
                    )
                    for c in to_embed
                ],
            )
        if metadata_only:
            await conn.executemany(_UPDATE_METADATA, [(c.id, *_metadata(c)) for c in metadata_only])
        current_ids = {c.id for c in composed.chunks}
        vanished = [i for i in existing if i not in current_ids]
        if vanished:
            await conn.execute("delete from public.docs_section where id = any($1::text[])", vanished)
        report.deleted = len(vanished)
        if to_embed or metadata_only or vanished or not await _stats_exist(conn):
            await conn.fetchval("select public.refresh_docs_search_stats()")
    report.seconds = round(time.perf_counter() - started, 3)
    log.info("sync_done", **{k: v for k, v in report.to_dict().items() if k != "warnings"})
    return report


async def _stats_exist(conn: asyncpg.Connection) -> bool:
    return bool(await conn.fetchval("select exists (select 1 from public.docs_search_stats)"))


async def sync_corpus(
    pool: asyncpg.Pool,
    source: DocsSource,
    settings: Settings,
    provider: EmbeddingProvider | None,
    *,
    cache: EmbeddingCache | None = None,
    progress: ProgressCallback | None = None,
    wait_for_lock: bool = False,
) -> SyncReport:
    """Compose the docs at `source` and sync them into the database behind `pool`."""
    started = time.perf_counter()
    outcome = "failed"
    try:
        composed = compose_corpus(source, settings)
        async with pool.acquire() as conn:
            report = await sync_chunks(
                conn, composed, provider, cache=cache, progress=progress, wait_for_lock=wait_for_lock
            )
        outcome = "ok"
    except SyncBusyError:
        outcome = "busy"
        raise
    finally:
        record_sync(outcome, time.perf_counter() - started)
    report.seconds = round(time.perf_counter() - started, 3)
    return report
