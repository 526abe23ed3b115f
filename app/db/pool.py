"""asyncpg connections and pools, with the pgvector codec and one-line connection errors."""

from __future__ import annotations

import asyncio
import socket

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


async def connect(url: str, *, timeout: float = 10.0) -> asyncpg.Connection:
    try:
        conn = await asyncpg.connect(url, timeout=timeout)
    except _CONNECT_ERRORS as exc:
        raise DatabaseError(f"cannot connect to the database at {redact_url(url)}: {_reason(exc)}") from None
    await _init_connection(conn)
    return conn


async def create_pool(url: str, *, min_size: int = 1, max_size: int = 10, timeout: float = 10.0) -> asyncpg.Pool:
    try:
        return await asyncpg.create_pool(
            url, min_size=min_size, max_size=max_size, init=_init_connection, timeout=timeout
        )
    except _CONNECT_ERRORS as exc:
        raise DatabaseError(f"cannot connect to the database at {redact_url(url)}: {_reason(exc)}") from None


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text
