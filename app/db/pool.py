"""asyncpg connections and pools, with the pgvector codec and one-line connection errors."""

from __future__ import annotations

import asyncio
import socket
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any

import asyncpg
from pgvector.asyncpg import register_vector

from app.db.url import redact_url
from app.errors import DatabaseError
from app.logging import get_logger

log = get_logger(__name__)


def behind_transaction_pooler() -> bool:
    """DATABASE_POOLER=transaction: connections reach Postgres through PgBouncer or Supavisor in
    transaction mode, where consecutive statements of one client may run on different server
    connections, so a named prepared statement made on one is missing (or already taken) on another."""
    from app.config import Settings

    # Read afresh, not through get_settings(): that cache would then hold whatever environment the
    # first connection saw (alembic's env, a test's fixture) for every later caller.
    return Settings().database_pooler == "transaction"


def asyncpg_pooler_options() -> dict[str, Any]:
    """asyncpg's options for the configured pooler mode: no statement cache behind a transaction
    pooler (asyncpg then uses unnamed statements, and parses again before binding, since a pooler
    may send the bind to another server connection: MagicStack/asyncpg#1065)."""
    return {"statement_cache_size": 0} if behind_transaction_pooler() else {}


def sqlalchemy_pooler_options() -> dict[str, Any]:
    """create_async_engine's options (the migrations): behind a transaction pooler, SQLAlchemy's
    asyncpg dialect still prepares every statement, so its cache is off and each statement gets a
    unique name, on a connection that is not pooled (SQLAlchemy's asyncpg dialect documentation,
    "Prepared Statement Name with PGBouncer")."""
    if not behind_transaction_pooler():
        return {}
    from sqlalchemy.pool import NullPool

    return {
        "poolclass": NullPool,
        "connect_args": {
            "statement_cache_size": 0, "prepared_statement_cache_size": 0,
            "prepared_statement_name_func": lambda: f"__docschat_{uuid.uuid4().hex}__",
        },
    }


_CONNECT_ERRORS = (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError, socket.gaierror, asyncio.TimeoutError)


async def _init_connection(conn: asyncpg.Connection) -> None:
    try:
        await register_vector(conn)
    except ValueError:
        # The vector extension is not installed yet (before the first migration); vectors are not used then.
        pass


@asynccontextmanager
async def connect(url: str, *, timeout: float = 10.0) -> AsyncIterator[asyncpg.Connection]:
    """One connection, closed on exit."""
    try:
        conn = await asyncpg.connect(url, timeout=timeout, **asyncpg_pooler_options())
    except _CONNECT_ERRORS as exc:
        raise _connect_error(url, exc) from None
    try:
        await _init_connection(conn)
        yield conn
    finally:
        await conn.close()


# Set by acquire_stateless for the task that holds such a connection: its release skips the reset.
_STATELESS: ContextVar[bool] = ContextVar("docschat_stateless_connection", default=False)


async def _reset(conn: asyncpg.Connection) -> None:
    """What asyncpg's pool runs on every release (after rolling back an open transaction): its
    own reset query (advisory locks, cursors, LISTEN, session settings), one round trip; none
    for a connection acquire_stateless lent."""
    if _STATELESS.get():
        return
    query = conn.get_reset_query()
    if query:
        await conn.execute(query)


# Releases handed to the event loop by acquire_stateless(release_later=True), held until done
# (the loop keeps only a weak reference to a task).
_RELEASING: set[asyncio.Task[None]] = set()


def _released(task: asyncio.Task[None]) -> None:
    _RELEASING.discard(task)
    if not task.cancelled() and task.exception() is not None:
        log.warning("connection_release_failed", error=type(task.exception()).__name__)


@asynccontextmanager
async def acquire_stateless(pool: asyncpg.Pool, *, release_later: bool = False) -> AsyncIterator[asyncpg.Connection]:
    """A connection of `pool` for statements that leave nothing in the session (no SET without
    LOCAL, LISTEN, cursor kept open or session advisory lock): its release skips asyncpg's reset
    query, a round trip as costly as a short statement (the search box's, per keystroke pause).
    An open transaction is still rolled back.

    release_later: when the block ends without an exception, the release is handed to the event
    loop (it runs at the caller's next wait) instead of awaited: asyncpg's release takes turns of
    the loop (it is shielded as a task of its own), which the retrieval's slower leg would put
    between its rows and the fusion. On an exception the connection is released before it
    propagates, as without it."""
    token = _STATELESS.set(True)
    try:
        conn = await pool.acquire()
        try:
            yield conn
        except BaseException:
            await pool.release(conn)
            raise
        if release_later:
            # The task copies this context: _STATELESS is still set there, so its reset is skipped.
            task = asyncio.get_running_loop().create_task(pool.release(conn))
            _RELEASING.add(task)
            task.add_done_callback(_released)
        else:
            await pool.release(conn)
    finally:
        _STATELESS.reset(token)


async def create_pool(url: str, *, min_size: int = 1, max_size: int = 10, timeout: float = 10.0) -> asyncpg.Pool:
    try:
        return await asyncpg.create_pool(
            url, min_size=min_size, max_size=max_size, init=_init_connection, reset=_reset, timeout=timeout,
            **asyncpg_pooler_options(),
        )
    except _CONNECT_ERRORS as exc:
        raise _connect_error(url, exc) from None


async def open_read_pool(settings: Any, *, min_size: int = 1, max_size: int = 10) -> asyncpg.Pool:
    """The read replica's pool (DATABASE_READ_URL). Its schema comes from the primary by
    replication: it is neither checked nor migrated here."""
    from app.db.url import check_postgres_url

    return await create_pool(check_postgres_url(settings.database_read_url, "DATABASE_READ_URL"),
                             min_size=min_size, max_size=max_size)


# A WAL page's header (short on most pages, long on a segment's first): the primary's insert
# position skips it, the replica's replay position stops before it (XLogBytePosToRecPtr).
_SHORT_PAGE_HEADER, _LONG_PAGE_HEADER = 24, 40


def _lsn(text: str) -> int:
    high, low = text.split("/")
    return (int(high, 16) << 32) + int(low, 16)


def wal_bytes_behind(primary_insert_lsn: str, replayed_lsn: str, block_size: int, segment_size: int) -> int:
    """The WAL bytes the replica has yet to replay. The primary's insert position, right after a
    page boundary, already points past the next page's header, which no replica replays until a
    record is written there: a replica that replayed up to that boundary is not behind."""
    end = _lsn(primary_insert_lsn)
    if end % segment_size == _LONG_PAGE_HEADER:
        end -= _LONG_PAGE_HEADER
    elif end % block_size == _SHORT_PAGE_HEADER:
        end -= _SHORT_PAGE_HEADER
    return max(0, end - _lsn(replayed_lsn))


async def replica_lag(primary: asyncpg.Pool, replica: asyncpg.Pool, *, timeout: float = 5.0) -> dict[str, Any]:
    """How far the read replica is behind the primary: the WAL bytes it has yet to replay, and the
    age of the newest transaction it replayed while it has any (0 when caught up). Two constant-time
    queries. `replica: false` when DATABASE_READ_URL is not a server in recovery (a primary).

    The primary's position is its insert position (pg_current_wal_insert_lsn), the end of every
    committed transaction, not pg_current_wal_lsn: that is where WAL has been written out, and a
    commit with synchronous_commit off stays in the WAL buffers for up to 3 × wal_writer_delay,
    during which a replica that lacks it had the same position: lag 0 while it served the older
    index (the replica test's failures, design/pooler-and-replica.md)."""
    async with primary.acquire(timeout=timeout) as conn:
        position = await conn.fetchrow(
            "select pg_catalog.pg_current_wal_insert_lsn()::text as lsn,"
            " pg_catalog.current_setting('wal_block_size')::int as block_size,"
            " pg_catalog.pg_size_bytes(pg_catalog.current_setting('wal_segment_size')) as segment_size"
        )
    async with replica.acquire(timeout=timeout) as conn:
        row = await conn.fetchrow(
            "select pg_catalog.pg_is_in_recovery() as in_recovery,"
            " pg_catalog.pg_last_wal_replay_lsn()::text as replayed,"
            " extract(epoch from pg_catalog.clock_timestamp() - pg_catalog.pg_last_xact_replay_timestamp())"
            " as replayed_ago"
        )
    if not row["in_recovery"]:
        return {"replica": False, "lag_bytes": 0, "lag_seconds": 0.0}
    behind = 0 if row["replayed"] is None else wal_bytes_behind(
        position["lsn"], row["replayed"], position["block_size"], int(position["segment_size"]))
    seconds = float(row["replayed_ago"] or 0.0) if behind else 0.0
    return {"replica": True, "lag_bytes": behind, "lag_seconds": round(max(0.0, seconds), 3)}


def _connect_error(url: str, exc: BaseException) -> DatabaseError:
    """One line naming the server (password hidden) and the first line of the reason."""
    reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return DatabaseError(f"cannot connect to the database at {redact_url(url)}: {reason}")
