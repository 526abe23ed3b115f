"""The indexed pages as a reader browses them (the demo's page view): only what `audiences` may see."""

from __future__ import annotations

import asyncpg

# A section's href as a reader sees it (a code link's `{commit}` filled with the commit its source's
# rows were synced at, sql/functions/docs_section_href.sql): `d` is docs_section, joined in the
# same statement to its source's commit row, so that one snapshot reads both.
SHOWN_HREF = "public.docs_section_href(d.href, sc.commit, sc.fill_hrefs)"
SOURCE_COMMIT = "left join public.docs_source_commit sc on sc.source = d.source"


async def page_sections(conn: asyncpg.Connection, page_href: str, audiences: list[str]) -> list[asyncpg.Record]:
    """The sections (id, title, heading, href, content) of the page at `page_href` (hrefs as a reader
    sees them: a URL pasted from a code link at the synced commit finds its file), by id."""
    return await conn.fetch(
        f"select d.id, d.title, d.heading, {SHOWN_HREF} as href, d.content from public.docs_section d {SOURCE_COMMIT}"
        f" where d.audiences && $2::text[] and split_part({SHOWN_HREF}, '#', 1) = $1 order by d.id",
        page_href, audiences,
    )


async def indexed_pages(conn: asyncpg.Connection, audiences: list[str]) -> list[asyncpg.Record]:
    """Every page (title, href), by title."""
    return await conn.fetch(
        # Each page once as stored, then filled: not every row's href filled and compared.
        f"select distinct d.title, {SHOWN_HREF} as href"
        " from (select distinct d.title, d.source, split_part(d.href, '#', 1) as href from public.docs_section d"
        f"       where d.audiences && $1::text[]) d {SOURCE_COMMIT} order by d.title",
        audiences,
    )
