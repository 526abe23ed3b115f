"""A page's sections as a reader sees them, in the order its file has them (app/corpus/page_order.py
says how the order is read back)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

import asyncpg

from app.corpus.page_order import order_sections, read_source_page
from app.corpus.sources import SourcesConfig
from app.search.indexed_pages import page_sections


async def page_sections_in_order(
    pool: asyncpg.Pool, hrefs: Iterable[str], audiences: list[str], sources: SourcesConfig | None
) -> list[asyncpg.Record]:
    """The sections of the first of `hrefs` that is a page `audiences` may see, in the order its
    file has them ([]: none). The file is read at the commit the source was synced at, once the
    connection is back in the pool (a `git cat-file` need not hold one)."""
    rows: list[asyncpg.Record] = []
    async with pool.acquire() as conn:
        for href in hrefs:
            rows = await page_sections(conn, href, audiences)
            if rows:
                break
        if not rows:
            return []
        source, page = rows[0]["source"], rows[0]["page"]
        commit = await conn.fetchval("select commit from public.docs_source_commit where source = $1", source)
    known = next((s for s in sources.sources if s.name == source), None) if sources else None
    return order_sections(rows, await asyncio.to_thread(read_source_page, known, commit, page))
