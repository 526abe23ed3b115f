"""The indexed pages as a reader browses them (the demo's page view): only what `audiences` may see."""

from __future__ import annotations

from collections.abc import Iterable

import asyncpg

from app.corpus.chunker import section_sort_key


async def page_sections(conn: asyncpg.Connection, page_href: str, audiences: list[str]) -> list[asyncpg.Record]:
    """The sections (id, source, page, title, heading, href, content, place, section_order) of the
    page at `page_href` (hrefs as a reader sees them: a URL pasted from a code link at the synced
    commit finds its file), in the page's order: their stored positions (section_sort_key)."""
    rows = await conn.fetch(
        # The section as a reader sees it (sql/functions/docs_section_shown.sql): the commit row
        # read in this statement, so one snapshot reads both.
        "select s.id, s.source, s.page, s.title, s.heading, s.href, s.content, s.place, s.section_order"
        " from public.docs_section_shown($2::text[]) s"
        " where split_part(s.href, '#', 1) = $1",
        page_href, audiences,
    )
    return sorted(rows, key=lambda row: section_sort_key(row["id"], row["section_order"]))


async def first_page_sections(pool: asyncpg.Pool, hrefs: Iterable[str], audiences: list[str]) -> list[asyncpg.Record]:
    """The sections of the first of `hrefs` that is a page `audiences` may see, in its order ([]: none)."""
    async with pool.acquire() as conn:
        for href in hrefs:
            if rows := await page_sections(conn, href, audiences):
                return rows
    return []


async def indexed_pages(conn: asyncpg.Connection, audiences: list[str]) -> list[asyncpg.Record]:
    """Every page (title, href), by title as a reader sorts it: `api` beside `API`, not after `Zebra`
    (the embedded server's collation is C, which puts every capital first)."""
    return await conn.fetch(
        # Each page once as stored, then filled (sql/functions/docs_page_shown.sql): not every row's.
        "select d.title, d.href from ("
        "  select distinct p.title, p.href from public.docs_page_shown($1::text[]) p"
        ") d order by lower(d.title), d.title, d.href",
        audiences,
    )
