"""Sync, step three: staging. Each batch's plan is written (one pipelined insert) into this sync's
generation of docs_section_stage, an unlogged scratch table no reader reads, with the batch's page
keys; so are the deletions of pages and sources that vanished. A generation untouched for
STALE_GENERATION_SECONDS belongs to a sync that died before its switch: the next sync deletes it
(design/scale-sync.md)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable

import asyncpg

from app.corpus.compose import PageKey
from app.indexing.sync_embed import Vector
from app.indexing.sync_plan import SyncPlan

STALE_GENERATION_SECONDS = 3600


def _insert_statement(table: str, columns: tuple[str, ...]) -> str:
    """`insert into <table> (<columns>) values ($1, …)`: fixed names, every value bound."""
    placeholders = ", ".join(f"${i}" for i in range(1, len(columns) + 1))
    return f"insert into {table} ({', '.join(columns)}) values ({placeholders})"


_STAGE_COLUMNS = ("gen", "id", "kind", "source", "page", "title", "heading", "breadcrumb", "href", "content",
                  "audiences", "content_hash", "embedding", "embedding_model", "place", "page_order", "section_order")
_STAGE_INSERT = _insert_statement("public.docs_section_stage", _STAGE_COLUMNS)
_STAGE_KEY_COLUMNS = ("gen", "source", "page", "key", "deps", "declared", "warnings")
_STAGE_KEY_INSERT = _insert_statement("public.docs_page_key_stage", _STAGE_KEY_COLUMNS)
_NEW_GENERATION = """
with stale as (
  delete from public.docs_sync_generation
  where touched_at < clock_timestamp() - make_interval(secs => $2)
)
insert into public.docs_sync_generation (gen) values ($1)
"""
_TOUCH_GENERATION = "update public.docs_sync_generation set touched_at = clock_timestamp() where gen = $1"
_DROP_GENERATION = "delete from public.docs_sync_generation where gen = $1"
_UNSTAGE_SECTIONS = "delete from public.docs_section_stage where gen = $1 and source = $2"
_UNSTAGE_KEYS = "delete from public.docs_page_key_stage where gen = $1 and source = $2"
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


async def new_generation(conn: asyncpg.Connection, gen: uuid.UUID) -> None:
    """Open generation `gen`; the stale generations of syncs that died go with their rows."""
    await conn.execute(_NEW_GENERATION, gen, float(STALE_GENERATION_SECONDS))


async def drop_generation(conn: asyncpg.Connection, gen: uuid.UUID) -> None:
    await conn.execute(_DROP_GENERATION, gen)


def stage_records(
    gen: uuid.UUID, plan: SyncPlan, vectors: dict[str, Vector], model: str | None, source: str,
) -> list[tuple[object, ...]]:
    records: list[tuple[object, ...]] = []
    for c in plan.to_embed:
        vector = vectors.get(c.embed_text)
        records.append((gen, c.id, "upsert", c.source, c.page, c.title, c.heading, c.breadcrumb, c.href, c.text,
                        list(c.audiences), c.content_hash, vector, model if model and vector is not None else None,
                        list(c.place), c.page_order, c.section_order))
    for c in plan.metadata_only:
        records.append((gen, c.id, "meta", c.source, c.page, c.title, c.heading, c.breadcrumb, c.href, None,
                        list(c.audiences), None, None, None, list(c.place), c.page_order, c.section_order))
    for row_id in plan.delete_ids:
        records.append((gen, row_id, "delete", source, None, None, None, None, None, None, None, None, None, None,
                        None, None, None))
    return records


async def stage_page_keys(conn: asyncpg.Connection, gen: uuid.UUID, source: str, keys: Iterable[PageKey]) -> None:
    records = [(gen, source, k.page, k.key, list(k.deps), k.declared, list(k.warnings)) for k in keys]
    if records:
        await conn.executemany(_STAGE_KEY_INSERT, records)


async def stage_batch(conn: asyncpg.Connection, gen: uuid.UUID, records: list[tuple[object, ...]]) -> None:
    """One batch into the generation (binary protocol: the vectors go as float32). Not COPY: Postgres
    refuses COPY FROM into a table with row-level security for a role that is not its owner."""
    if records:
        await conn.executemany(_STAGE_INSERT, records)
    await conn.execute(_TOUCH_GENERATION, gen)


async def unstage_source(conn: asyncpg.Connection, gen: uuid.UUID, source: str) -> None:
    """Take a source that could not be read out of the generation: its rows stay as they are."""
    await conn.execute(_UNSTAGE_SECTIONS, gen, source)
    await conn.execute(_UNSTAGE_KEYS, gen, source)


async def stage_vanished_pages(conn: asyncpg.Connection, gen: uuid.UUID, source: str, seen_pages: set[str]) -> int:
    """Stage the deletion of the rows of `source` whose page was not seen; how many."""
    return int(await conn.fetchval(_STAGE_VANISHED_PAGES, gen, source, sorted(seen_pages)))


async def stage_gone_sources(conn: asyncpg.Connection, gen: uuid.UUID, configured: list[str]) -> dict[str, int]:
    """Stage the deletion of the rows of sources not in `configured`; how many, by source."""
    return {row["source"]: row["n"] for row in await conn.fetch(_STAGE_GONE_SOURCES, gen, configured)}
