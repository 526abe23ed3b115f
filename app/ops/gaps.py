"""Gaps as the console shows them (built on issue 10's docs_chat_gap; empty until it exists)."""

from __future__ import annotations

from typing import Any

import asyncpg


async def _table_exists(conn: asyncpg.Connection) -> bool:
    return bool(await conn.fetchval("select to_regclass('public.docs_chat_gap') is not null"))


async def list_gap_groups(conn: asyncpg.Connection) -> list[dict[str, Any]]:
    if not await _table_exists(conn):
        return []
    return []


async def clear_gaps(conn: asyncpg.Connection) -> int:
    if not await _table_exists(conn):
        return 0
    status = await conn.execute("delete from public.docs_chat_gap")
    return int(status.split()[-1])
