"""clear_index: empty the index, or one source of it, under the sync lock."""

from __future__ import annotations

import asyncpg

from app.indexing.jobs import SYNC_JOB_LOCK_KEY, SyncJobBusy, running_job
from app.indexing.sync import SYNC_LOCK_KEY


async def clear_index(pool: asyncpg.Pool, source: str | None = None) -> int:
    """Delete every chunk (or `source`'s); the number deleted. Refused while a sync runs."""
    async with pool.acquire() as conn, conn.transaction():
        # Neither a sync job nor a sync's apply step may be running.
        if not await conn.fetchval(
            "select pg_try_advisory_xact_lock($1) and pg_try_advisory_xact_lock($2)", SYNC_JOB_LOCK_KEY, SYNC_LOCK_KEY
        ):
            raise SyncJobBusy(await running_job(conn))
        if source is None:
            status = await conn.execute("delete from public.docs_section")
        else:
            status = await conn.execute("delete from public.docs_section where source = $1", source)
        await conn.fetchval("select public.refresh_docs_search_stats()")
    return int(status.split()[-1])
