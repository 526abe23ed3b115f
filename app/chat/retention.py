"""Retention: conversations, expired rate-limit windows, cached question embeddings and gaps are
deleted once they are older than their window (sql/functions/docs_prune_expired.sql). The server runs it
at start and then every PRUNE_INTERVAL_SECONDS; from psql: `select * from docs_prune_expired(30, 90)`."""

from __future__ import annotations

import asyncio

import asyncpg

from app.config import Settings
from app.logging import get_logger

log = get_logger(__name__)

PRUNE_INTERVAL_SECONDS = 3600.0


async def prune_expired(conn: asyncpg.Connection, settings: Settings) -> dict[str, int]:
    """Delete sessions and messages older than CHAT_RETENTION_DAYS, expired docs_chat_limits rows,
    question embeddings older than the same window and gaps not seen for GAP_RETENTION_DAYS;
    returns how many of each."""
    rows = await conn.fetch("select kind, deleted from public.docs_prune_expired($1, $2)",
                            settings.chat_retention_days, settings.gap_retention_days)
    return {r["kind"]: int(r["deleted"]) for r in rows}


class RetentionPruner:
    """Calls prune_expired now and every `interval` seconds until stopped; a failed round is logged
    and the next one runs as planned."""

    def __init__(self, pool: asyncpg.Pool, settings: Settings, interval: float = PRUNE_INTERVAL_SECONDS) -> None:
        self.pool = pool
        self.settings = settings
        self.interval = interval
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._loop())

    async def _loop(self) -> None:
        while True:
            try:
                async with self.pool.acquire() as conn:
                    deleted = await prune_expired(conn, self.settings)
                if any(deleted.values()):
                    log.info("retention_pruned", **deleted)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - the loop outlives one bad round
                log.warning("retention_prune_failed", error=type(exc).__name__)
            await asyncio.sleep(self.interval)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
