"""The server's re-check loop: after SYNC_START_DELAY_SECONDS, then every SYNC_INTERVAL_SECONDS.

Each check compares every source's branch head with its last synced commit (indexing.jobs), so an
unchanged head costs one `git rev-parse` per source. With several server processes the sync lock
lets one check at a time; the others skip that round.
"""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from app.errors import DocschatError
from app.indexing.jobs import SyncJobBusy
from app.indexing.runner import SyncRunner
from app.logging import get_logger

log = get_logger(__name__)


class SyncScheduler:
    def __init__(self, runner: SyncRunner, interval_seconds: float, start_delay_seconds: float) -> None:
        self.runner = runner
        self.interval = interval_seconds
        self.start_delay = start_delay_seconds
        self.next_check: float | None = None  # time.monotonic() of the next check
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._loop())

    def info(self) -> dict[str, Any]:
        if self.next_check is None:
            return {}
        at = datetime.now(UTC) + timedelta(seconds=max(0.0, self.next_check - time.monotonic()))
        return {"next_check_at": at.isoformat()}

    async def _loop(self) -> None:
        self.next_check = time.monotonic() + self.start_delay
        while True:
            await asyncio.sleep(max(0.0, self.next_check - time.monotonic()))
            self.next_check = time.monotonic() + self.interval
            try:
                result = await self.runner.recheck(self.interval)
                if result["state"] != "unchanged":
                    log.info("scheduled_sync", job=result["id"], state=result["state"])
            except SyncJobBusy:
                log.debug("scheduled_check_skipped", reason="another sync is running")
            except (DocschatError, OSError) as exc:
                log.warning("scheduled_check_failed", error=str(exc)[:200])
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - the loop outlives one bad check
                log.error("scheduled_check_failed", error=type(exc).__name__)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
