"""clear_index: empty the index, or one source of it, under the sync lease and the apply lock."""

from __future__ import annotations

import uuid

import asyncpg

from app.indexing.jobs import SYNC_LEASE, SyncJobBusy, release_lease, running_job
from app.indexing.sync_apply import SYNC_LOCK_KEY


class _Busy(Exception):
    """Rolls the transaction back (the lease it may have taken with it)."""


async def clear_index(pool: asyncpg.Pool, source: str | None = None) -> int:
    """Delete every chunk (or `source`'s); the number deleted. Refused while a sync runs."""
    async with pool.acquire() as conn:
        try:
            async with conn.transaction():
                # Neither a sync job nor a sync's apply step may be running. The lease is taken and let
                # go inside this transaction: a job claiming it meanwhile waits for the row, then finds
                # it free again.
                owner = uuid.uuid4()
                if not await conn.fetchval(
                    "select public.docs_lease_take($1, $2, 60) and pg_try_advisory_xact_lock($3)",
                    SYNC_LEASE, owner, SYNC_LOCK_KEY,
                ):
                    raise _Busy
                if source is None:
                    status = await conn.execute("delete from public.docs_section")
                else:
                    status = await conn.execute("delete from public.docs_section where source = $1", source)
                # The page keys go with the rows: a page without rows is composed at the next sync.
                await conn.execute("delete from public.docs_page_key where $1::text is null or source = $1", source)
                await conn.fetchval("select public.refresh_docs_search_stats()")
                await release_lease(conn, owner)
        except _Busy:
            raise SyncJobBusy(await running_job(conn)) from None
    return int(status.split()[-1])
