"""Getting the database back after it went away, without restarting docschat.

A failed request calls `DatabaseRecovery.notice_failure()`. One background attempt at a time
then drops the pool's idle connections (they point at a server that is gone, so the next
acquire opens fresh ones) and, when the server is the embedded one in DOCSCHAT_HOME, starts it
again. Attempts are spaced by `min_interval_seconds` so a burst of failures does not pile up.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import asyncpg

from app.errors import DatabaseError
from app.logging import get_logger

log = get_logger(__name__)

# Seconds a client is asked to wait (Retry-After) while the database comes back.
RETRY_AFTER_SECONDS = 5

# What "the database cannot be reached" looks like from asyncpg and the OS.
UNAVAILABLE_ERRORS: tuple[type[Exception], ...] = (
    OSError,  # refused, reset, socket file gone, timeouts (TimeoutError is an OSError)
    asyncpg.PostgresConnectionError,
    asyncpg.OperatorInterventionError,  # admin/crash shutdown, cannot connect now
    asyncpg.InterfaceError,  # "connection is closed"
    asyncpg.InternalClientError,  # the pool's own state while its connections are being re-made
    DatabaseError,
)


class DatabaseRecovery:
    def __init__(self, pool: asyncpg.Pool, embedded_home: Path | None, min_interval_seconds: float = 1.0) -> None:
        self.pool = pool
        self.embedded_home = embedded_home  # None: an external server, which we can only wait for
        self.min_interval_seconds = min_interval_seconds
        self._task: asyncio.Task[None] | None = None
        self._last_attempt = 0.0

    def notice_failure(self) -> None:
        """Schedule one recovery attempt unless one is running or ran a moment ago."""
        if self._task is not None and not self._task.done():
            return
        if time.monotonic() - self._last_attempt < self.min_interval_seconds:
            return
        self._last_attempt = time.monotonic()
        self._task = asyncio.get_running_loop().create_task(self._recover())

    async def _recover(self) -> None:
        try:
            if self.embedded_home is not None:
                from app.db.embedded import restart_embedded_server_if_down

                url = await asyncio.to_thread(restart_embedded_server_if_down, self.embedded_home)
                if url:
                    self.pool.set_connect_args(url)
            await self.pool.expire_connections()
        except DatabaseError as exc:  # ours: says what is wrong (a path, never a secret)
            log.warning("database_recovery_failed", error=type(exc).__name__, detail=str(exc)[:300])
        except Exception as exc:  # noqa: BLE001 - the next failure tries again
            log.warning("database_recovery_failed", error=type(exc).__name__)
        finally:
            self._last_attempt = time.monotonic()

    async def close(self) -> None:
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)
