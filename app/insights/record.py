"""Counting as events happen, into the daily rollup rows of sql/026_insights.sql.

A chat question is written at once, with its answer (`record_turn`, one statement: its day's
question and outcome, the chat door, the pages it cited, the question in its group of
near-duplicates). The doors that answer many cheap requests (the search box, MCP, llms.txt) are
counted in this process's memory and added every FLUSH_SECONDS in one statement
(`InsightsRecorder.flush`): a keystroke of the search box costs no write. A process that stops
adds what it holds; one that dies loses at most FLUSH_SECONDS of those counts.

Nothing here keeps an IP, a session or any other identifier: a count, a page URL, a question's
or a no-result query's wording.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Literal

import asyncpg

from app.config import Settings
from app.judge.confidence import cosine_scale
from app.logging import get_logger

log = get_logger(__name__)

Door = Literal["chat", "search", "mcp", "llms_txt"]
DOORS: tuple[Door, ...] = ("chat", "search", "mcp", "llms_txt")
Outcome = Literal["answered", "partly", "refused"]
FLUSH_SECONDS = 5.0
PRUNE_SECONDS = 3600.0
# Distinct no-result queries held between two flushes at most (a database that stays down must
# not grow the process): past it new ones are dropped, and the drop is logged.
MAX_HELD_QUERIES = 10_000
MAX_QUERY_CHARS = 500
# Two questions are near-duplicates when the cosine of their embeddings is at least this far from
# the model's "related" cosine towards 1 (app/judge/confidence.py COSINE_SCALES): all-MiniLM-L6-v2
# 0.60 → 0.75, Gemini 0.80 → 0.875. Chosen on the ray rewordings, confirmed on the claude ones
# (scripts/check_near_duplicates.py, design/insights.md).
NEAR_DUPLICATE_SHARE = 0.375


def near_duplicate_cosine(model: str | None, scale: tuple[float, float] | None = None) -> float:
    """The cosine at or above which a question joins an earlier one's group."""
    related = (scale or cosine_scale(model))[1]
    return related + NEAR_DUPLICATE_SHARE * (1.0 - related)


def today() -> date:
    """The day an event counts on: the UTC date, as docs_insight_today() has it."""
    return datetime.now(UTC).date()


@dataclass(frozen=True)
class CitedPage:
    url: str  # without its anchor
    title: str


def page_url(url: str) -> str:
    """A cited URL without its anchor: sections of one page count as the page."""
    return url.split("#", 1)[0]


async def record_turn(
    pool: asyncpg.Pool,
    question: str,
    outcome: Outcome | None,
    pages: Sequence[CitedPage],
    embedding: Sequence[float] | None,
    model: str | None,
    near_cosine: float,
) -> int | None:
    """Count one chat question (outcome None: it failed before it was judged); the id of its
    group of near-duplicates. Never raises: the answer was sent, only its count is lost."""
    try:
        async with pool.acquire() as conn:
            return await conn.fetchval(
                "select public.record_docs_insight_turn($1, $2, $3, $4, $5, $6, $7)",
                question[:MAX_QUERY_CHARS], outcome, [p.url for p in pages], [p.title for p in pages],
                list(embedding) if embedding is not None else None, model if embedding is not None else None,
                near_cosine,
            )
    except (asyncpg.PostgresError, OSError) as exc:
        log.warning("insights_turn_not_recorded", error=type(exc).__name__)
        return None


class InsightsRecorder:
    """This process's counts of requests per door and of search-box queries that found nothing,
    added to the database every `interval` seconds, at `flush()`, and when stopped. With `settings`
    it also deletes, at start and then every PRUNE_SECONDS, the rollup rows past their retention
    (docs_insight_prune with CHAT_RETENTION_DAYS and GAP_RETENTION_DAYS; docs_prune_expired does
    the same, with the default gap retention, as it is called without one)."""

    def __init__(self, pool: asyncpg.Pool, settings: Settings | None = None, interval: float = FLUSH_SECONDS) -> None:
        self.pool = pool
        self.settings = settings
        self.interval = interval
        self._pruned_at: float | None = None
        self._requests: Counter[tuple[date, str]] = Counter()
        self._misses: Counter[tuple[date, str]] = Counter()
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self.dropped = 0

    def count(self, door: Door) -> None:
        """One request served at `door`."""
        self._requests[(today(), door)] += 1

    def search(self, query: str, mode: str, results: int) -> None:
        """One search-box request; a submitted query (mode=hybrid: the reader pressed Enter) that
        found nothing is kept as a count per query. Letters typed one by one (mode=keyword) are
        not queries yet: "kube", "kuber", … would each count."""
        self.count("search")
        if mode != "hybrid" or results:
            return
        key = (today(), query.strip()[:MAX_QUERY_CHARS])
        if not key[1]:
            return
        if key not in self._misses and len(self._misses) >= MAX_HELD_QUERIES:
            self.dropped += 1
            return
        self._misses[key] += 1

    async def flush(self) -> int:
        """Add what is held to the database; the rows written. On failure what was taken is held
        again for the next flush, and the error raised."""
        async with self._lock:
            requests, self._requests = self._requests, Counter()
            misses, self._misses = self._misses, Counter()
            if not requests and not misses:
                return 0
            try:
                async with self.pool.acquire() as conn:
                    written = await conn.fetchval(
                        "select public.record_docs_insight_counts($1, $2, $3, $4, $5, $6)",
                        [d for d, _ in requests], [door for _, door in requests], list(requests.values()),
                        [d for d, _ in misses], [q for _, q in misses], list(misses.values()),
                    )
            except BaseException:
                self._requests.update(requests)
                self._misses.update(misses)
                raise
        if self.dropped:
            log.warning("insights_queries_dropped", dropped=self.dropped)
            self.dropped = 0
        return int(written or 0)

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop())

    async def prune(self) -> dict[str, int]:
        """Delete the rollup rows past their retention; how many of each kind."""
        if self.settings is None:
            return {}
        async with self.pool.acquire() as conn:
            rows = await conn.fetch("select kind, deleted from public.docs_insight_prune($1, $2)",
                                    self.settings.chat_retention_days, self.settings.gap_retention_days)
        self._pruned_at = time.monotonic()
        return {r["kind"]: int(r["deleted"]) for r in rows}

    async def _loop(self) -> None:
        while True:
            try:
                if self._pruned_at is None or time.monotonic() - self._pruned_at >= PRUNE_SECONDS:
                    await self.prune()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - the next round tries again
                log.warning("insights_prune_failed", error=type(exc).__name__)
                self._pruned_at = time.monotonic()
            await asyncio.sleep(self.interval)
            try:
                await self.flush()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - the counts are held for the next round
                log.warning("insights_flush_failed", error=type(exc).__name__)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        try:
            await self.flush()
        except Exception as exc:  # noqa: BLE001 - stopping: nothing more can be done
            log.warning("insights_flush_failed", error=type(exc).__name__)
