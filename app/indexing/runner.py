"""SyncRunner: starts sync jobs in the server's event loop and keeps their live progress."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import asyncpg

from app.config import Settings
from app.embeddings.base import EmbeddingProvider
from app.indexing.jobs import SyncJob, Trigger, claim_sync_job, job_view, run_sync_job
from app.logging import get_logger

log = get_logger(__name__)


class SyncRunner:
    """One per server process; the lock in the database keeps jobs apart across processes."""

    def __init__(self, pool: asyncpg.Pool, settings: Settings, provider: EmbeddingProvider | None) -> None:
        self.pool = pool
        self.settings = settings
        self.provider = provider
        self.jobs: dict[uuid.UUID, SyncJob] = {}  # this process's jobs, while they run
        self.tasks: set[asyncio.Task[Any]] = set()

    async def start(self, *, source: str | None, trigger: Trigger) -> dict[str, Any]:
        """Claim and start a job in the background; its view. Raises SyncJobBusy, ConfigError."""
        job = await claim_sync_job(self.pool, self.settings, trigger=trigger, only=source)
        self._spawn(job)
        view = await job_view(self.pool, job.id)
        assert view is not None
        return self._with_progress(view)

    async def recheck(self, interval_seconds: float) -> dict[str, Any]:
        """The scheduler's check: sync only the sources whose head moved (raises SyncJobBusy)."""
        job = await claim_sync_job(
            self.pool, self.settings, trigger="scheduler", only_if_changed=True,
            check_interval_seconds=interval_seconds,
        )
        self.jobs[job.id] = job
        try:
            return (await run_sync_job(job, self.settings, self.provider)).view
        finally:
            self.jobs.pop(job.id, None)

    def _spawn(self, job: SyncJob) -> None:
        self.jobs[job.id] = job

        async def run() -> None:
            try:
                await run_sync_job(job, self.settings, self.provider)
            except Exception as exc:  # noqa: BLE001 - recorded on its rows; a background job has no caller
                log.error("background_sync_job_failed", job=str(job.id), error=type(exc).__name__)
            finally:
                self.jobs.pop(job.id, None)

        task = asyncio.create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def view(self, job_id: uuid.UUID) -> dict[str, Any] | None:
        view = await job_view(self.pool, job_id)
        return self._with_progress(view) if view else None

    def _with_progress(self, view: dict[str, Any]) -> dict[str, Any]:
        """Live embedding progress when the job runs in this process (None elsewhere)."""
        job = self.jobs.get(uuid.UUID(view["id"]))
        view["progress"] = job.progress() if job and view["state"] == "running" else None
        return view

    async def stop(self) -> None:
        """Cancel running jobs (their rows say 'interrupted'; the lock goes with the connection)."""
        for task in list(self.tasks):
            task.cancel()
        if self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)
