"""The indexed pages as a reader browses them (the demo's page view): only what `audiences` may see."""

from __future__ import annotations

import asyncpg


async def page_sections(conn: asyncpg.Connection, page_href: str, audiences: list[str]) -> list[asyncpg.Record]:
    """The sections (id, title, heading, href, content) of the page at `page_href`, by id."""
    return await conn.fetch(
        "select id, title, heading, href, content from public.docs_section"
        " where audiences && $2::text[] and split_part(href, '#', 1) = $1 order by id",
        page_href, audiences,
    )


async def indexed_pages(conn: asyncpg.Connection, audiences: list[str]) -> list[asyncpg.Record]:
    """Every page (title, href), by title."""
    return await conn.fetch(
        "select distinct title, split_part(href, '#', 1) as href from public.docs_section"
        " where audiences && $1::text[] order by title",
        audiences,
    )
