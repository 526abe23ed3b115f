"""What the server starts for operations: the sync runner, the admin limiter, the scheduler, the
insights recorder."""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg
from litestar.datastructures import State

from app.chat.retention import RetentionPruner
from app.config import Settings
from app.indexing.runner import SyncRunner
from app.indexing.scheduler import SyncScheduler
from app.insights.record import InsightsRecorder
from app.rate_limit import ClientRateLimiter


@dataclass
class Operations:
    runner: SyncRunner
    scheduler: SyncScheduler | None
    pruner: RetentionPruner
    insights: InsightsRecorder

    async def stop(self) -> None:
        await self.insights.stop()  # adds the counts it holds
        await self.pruner.stop()
        if self.scheduler is not None:
            await self.scheduler.stop()
        await self.runner.stop()


def start_operations(state: State, pool: asyncpg.Pool, settings: Settings) -> Operations:
    """Puts sync_runner, sync_scheduler and admin_limiter on the app state; starts the scheduler
    when SYNC_INTERVAL_SECONDS is set, and the retention pruner (app/chat/retention.py) always."""
    embedder = state.services.retriever.embedder
    runner = SyncRunner(pool, settings, embedder.provider if embedder else None)
    scheduler = None
    if settings.sync_interval_seconds is not None:
        scheduler = SyncScheduler(runner, settings.sync_interval_seconds, settings.sync_start_delay_seconds)
        scheduler.start()
    state.sync_runner = runner
    state.sync_scheduler = scheduler
    state.admin_limiter = ClientRateLimiter(
        pool, settings.admin_failures_per_hour, settings.admin_failures_per_day, namespace="admin"
    )
    pruner = RetentionPruner(pool, settings)
    pruner.start()
    # Counts of the doors (app/insights/record.py), and chat turns counted through the services.
    insights = InsightsRecorder(pool, settings)
    insights.start()
    state.insights = state.services.insights = insights
    return Operations(runner, scheduler, pruner, insights)
