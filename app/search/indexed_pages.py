"""The indexed pages as a reader browses them (the demo's page view): only what `audiences` may see."""

from __future__ import annotations

import asyncpg


async def page_sections(conn: asyncpg.Connection, page_href: str, audiences: list[str]) -> list[asyncpg.Record]:
    """The sections (id, source, page, title, heading, href, content, place) of the page at `page_href` (hrefs as a reader
    sees them: a URL pasted from a code link at the synced commit finds its file), by id."""
    return await conn.fetch(
        # The section as a reader sees it (sql/functions/docs_section_shown.sql): the commit row
        # read in this statement, so one snapshot reads both.
        "select s.id, s.source, s.page, s.title, s.heading, s.href, s.content, s.place"
        " from public.docs_section_shown($2::text[]) s"
        " where split_part(s.href, '#', 1) = $1 order by s.id",
        page_href, audiences,
    )


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
