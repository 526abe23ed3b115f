"""What `docschat db status` reports: revision, versions, row counts."""

from __future__ import annotations

from typing import Any

import asyncpg

from app.db.migrate import current_revision, head_revision

# One fixed statement per table: no SQL is assembled from strings.
_ROW_COUNTS = {
    "docs_section": "select count(*) from public.docs_section",
    "docs_query_embedding": "select count(*) from public.docs_query_embedding",
    "docs_chat_session": "select count(*) from public.docs_chat_session",
    "docs_chat_message": "select count(*) from public.docs_chat_message",
    "docs_chat_limits": "select count(*) from public.docs_chat_limits",
}


async def count_sections(conn: asyncpg.Connection, audiences: list[str]) -> int:
    """How many sections `audiences` may see (the health check's proof that the database answers:
    anyone may call it, so it counts what the anonymous chat sees, not what the index holds).

    Read from docs_search_stats (one row per audience set, rewritten by every sync in the sync's
    transaction), so a probe costs the same at ten sections or a million: it never reads
    docs_section."""
    return await conn.fetchval(
        "select coalesce(sum(section_count), 0)::integer from public.docs_search_stats"
        " where audiences operator(pg_catalog.&&) $1::text[]",
        audiences,
    )


async def database_status(conn: asyncpg.Connection) -> dict[str, Any]:
    revision = await current_revision(conn)
    rows: dict[str, int | None] = {}
    for table, count_sql in _ROW_COUNTS.items():
        exists = await conn.fetchval("select to_regclass($1) is not null", "public." + table)
        rows[table] = await conn.fetchval(count_sql) if exists else None
    return {
        "revision": revision,
        "head": head_revision(),
        "up_to_date": revision == head_revision(),
        "server_version": await conn.fetchval("show server_version"),
        "pgvector_version": await conn.fetchval("select extversion from pg_catalog.pg_extension where extname = 'vector'"),
        "pgvector_available": await conn.fetchval(
            "select default_version from pg_catalog.pg_available_extensions where name = 'vector'"
        ),
        "rows": rows,
    }

