"""Sync, step one: the plan. From the rows in the database for a batch's pages and the batch's
chunks, `plan_sync` (pure) decides what to embed, what changed only in metadata (an audience, a
title) and what vanished. The reads it needs are here: a batch's existing rows, and the page keys
that let a sync skip composing a page whose inputs did not change (design/page-keys.md)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import asyncpg

from app.corpus.chunker import Chunk
from app.corpus.compose import PageKey

# Columns a chunk can change without its text changing. The place counts in the embedded text (a
# new place is a new content_hash), and is here too: rows written before it was stored have none.
# The positions (a page moved in the navigation, a section added above) are not in that text: a
# change to them alone is a metadata update, nothing embedded.
_METADATA_FIELDS = ("source", "page", "title", "heading", "breadcrumb", "href", "audiences", "place", "page_order",
                    "section_order")
_LIST_FIELDS = ("audiences", "place")


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


# A batch's rows: those of its pages, and any row holding one of its ids.
_EXISTING_FOR_BATCH = """
select id, source, page, title, heading, breadcrumb, href, audiences, place, page_order, section_order,
       content_hash, embedding_model,
       embedding is not null as has_embedding
from public.docs_section
where (source = $1 and page = any($2::text[])) or id = any($3::text[])
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


async def existing_rows(conn: asyncpg.Connection, source: str, pages: Iterable[str],
                        chunks: Iterable[Chunk]) -> list[ExistingRow]:
    """The rows a batch of `source` may touch: those of its pages, and any holding one of its ids."""
    records = await conn.fetch(_EXISTING_FOR_BATCH, source, sorted(pages), [c.id for c in chunks])
    return [
        ExistingRow(r["id"], r["source"], r["content_hash"], r["embedding_model"], r["has_embedding"],
                    tuple(list(r[n]) if n in _LIST_FIELDS else r[n] for n in _METADATA_FIELDS))
        for r in records
    ]


async def known_keys(conn: asyncpg.Connection, source: str, model: str | None) -> dict[str, PageKey]:
    """The page keys of `source` a sync embedding with `model` may trust (see _KNOWN_KEYS), by page."""
    return {r["page"]: PageKey(r["page"], r["key"], tuple(r["deps"]), r["declared"], tuple(r["warnings"]),
                               r["chunks"]) for r in await conn.fetch(_KNOWN_KEYS, source, model)}
