"""asyncpg connections and pools, with the pgvector codec and one-line connection errors."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg
from pgvector.asyncpg import register_vector

from app.db.url import redact_url
from app.errors import DatabaseError

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
        conn = await asyncpg.connect(url, timeout=timeout)
    except _CONNECT_ERRORS as exc:
        raise _connect_error(url, exc) from None
    try:
        await _init_connection(conn)
        yield conn
    finally:
        await conn.close()


async def create_pool(url: str, *, min_size: int = 1, max_size: int = 10, timeout: float = 10.0) -> asyncpg.Pool:
    try:
        return await asyncpg.create_pool(
            url, min_size=min_size, max_size=max_size, init=_init_connection, timeout=timeout
        )
    except _CONNECT_ERRORS as exc:
        raise _connect_error(url, exc) from None


def _connect_error(url: str, exc: BaseException) -> DatabaseError:
    """One line naming the server (password hidden) and the first line of the reason."""
    reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return DatabaseError(f"cannot connect to the database at {redact_url(url)}: {reason}")
