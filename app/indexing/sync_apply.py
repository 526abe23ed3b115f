"""Sync, step four: the switch. One short transaction takes the advisory lock
(pg_advisory_xact_lock), checks that docs_index_version is the one read before the first batch was
planned (another writer ran meanwhile: the sync plans again), and applies the generation with
public.docs_sync_switch, which keeps the word statistics current from the touched rows only. A
reader sees every source as it was before or as it is after, never half of one
(design/scale-sync.md)."""

from __future__ import annotations

import uuid

import asyncpg

from app.errors import DocschatError

# pg_advisory_xact_lock key: any fixed 64-bit number, shared by every docschat sync.
SYNC_LOCK_KEY = 0x646F6373_63686174  # "docschat"

_INDEX_VERSION = "select version from public.docs_index_version"
# Rows without statistics (a revision emptied them): the switch cannot update what is not there.
_STATS_MISSING = (
    "select not exists (select 1 from public.docs_search_stats) and exists (select 1 from public.docs_section)")
# The commit each synced source was read at, and whether its hrefs hold `{commit}` to fill with it
# when read (sql/functions/docs_source_commit_record.sql): in the switch's transaction.
_RECORD_COMMITS = "select public.docs_source_commit_record($1::text[], $2::text[], $3::boolean[])"
_FORGET_COMMITS = "delete from public.docs_source_commit where not (source = any($1::text[]))"
_SWITCH_PAGE_KEYS = "select public.docs_page_key_switch($1, $2, $3, $4, $5)"


class SyncBusyError(DocschatError):
    """Another sync holds the lock."""


class StalePlanError(DocschatError):
    """The rows changed between planning and applying (another sync ran)."""


async def index_version(conn: asyncpg.Connection) -> object:
    """The index's version: read before planning, checked again in the switch's transaction."""
    return await conn.fetchval(_INDEX_VERSION)


async def lock(conn: asyncpg.Connection, wait_for_lock: bool) -> None:
    if wait_for_lock:
        await conn.execute("select pg_advisory_xact_lock($1)", SYNC_LOCK_KEY)
    elif not await conn.fetchval("select pg_try_advisory_xact_lock($1)", SYNC_LOCK_KEY):
        raise SyncBusyError("another sync is running on this database (advisory lock held); try again when it ends")


async def switch(
    conn: asyncpg.Connection,
    gen: uuid.UUID,
    commits: dict[str, str],
    configured_sources: list[str] | None,
    kept: dict[str, list[str]],
    fill_hrefs: frozenset[str] = frozenset(),
) -> int:
    """Apply the generation (the caller holds the lock in its transaction and has checked the
    plan is current); the number of staged rows. The page keys go in the same transaction: of
    each source in `kept` (the sources synced, with the pages they skipped) what was staged and
    what was skipped remains. So do the commits, each with whether its source's hrefs hold
    `{commit}` (`fill_hrefs`): readers fill it in the statement that reads the rows, so they see
    the new commit with the new rows or the old with the old."""
    rebuild = await conn.fetchval(_STATS_MISSING)  # then the one full rebuild follows the switch
    staged = int(await conn.fetchval("select public.docs_sync_switch($1)", gen))
    if rebuild:
        await conn.fetchval("select public.refresh_docs_search_stats()")
    if commits:
        names = sorted(commits)
        await conn.fetchval(_RECORD_COMMITS, names, [commits[n] for n in names], [n in fill_hrefs for n in names])
    if configured_sources is not None:
        await conn.execute(_FORGET_COMMITS, configured_sources)
    pairs = [(name, page) for name, pages in kept.items() for page in pages]
    await conn.fetchval(_SWITCH_PAGE_KEYS, gen, sorted(kept), [name for name, _ in pairs],
                        [page for _, page in pairs], configured_sources)
    return staged


async def apply_generation(
    conn: asyncpg.Connection,
    gen: uuid.UUID,
    planned_at: object,
    *,
    wait_for_lock: bool,
    commits: dict[str, str],
    configured_sources: list[str] | None,
    kept: dict[str, list[str]],
    fill_hrefs: frozenset[str],
) -> None:
    """Lock, check the index is still at `planned_at` (else StalePlanError: plan again), switch:
    in one transaction."""
    async with conn.transaction():
        await lock(conn, wait_for_lock)
        if await index_version(conn) != planned_at:
            raise StalePlanError("the index changed while this sync was embedding")
        await switch(conn, gen, commits, configured_sources, kept, fill_hrefs)
