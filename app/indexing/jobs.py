"""Sync jobs: one at a time across every process, each source's run recorded in docs_sync_run.

A job holds the lease "sync" (docs_lease, taken with docs_lease_take) for its whole life (compose,
embed, apply): a row naming the job as its owner, with an expiry that a heartbeat task renews every
third of SYNC_LEASE_SECONDS. A row, not a session advisory lock: behind a pooler in transaction
mode (PgBouncer, Supavisor) a session lock stays with whichever server connection took it, held
for some other client or never released. Every recorded path takes the lease (the server's reindex
and scheduler, `docschat sync`), so two syncs never run at once; the sync's short apply transaction
still takes the transaction-level SYNC_LOCK_KEY against anything else. A job that finds the lease
held raises SyncJobBusy with the running job, read from docs_sync_run. Rows left 'running' by a
process that died are marked 'interrupted' by the next job, which can start once the dead
process's lease has lapsed (at most SYNC_LEASE_SECONDS after its last heartbeat).
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import asyncpg

from app.config import Settings
from app.corpus.sources import Source, SourcesConfig, load_sources
from app.embeddings.base import EmbeddingProvider
from app.embeddings.cache import EmbeddingCache, cache_path
from app.errors import DocschatError, describe_error
from app.indexing.source_state import config_hash, head_commit
from app.indexing.sync import ProgressCallback, SyncReport, sync_sources
from app.logging import get_logger

log = get_logger(__name__)

# The whole-job lease's name in docs_lease.
SYNC_LEASE = "sync"

Trigger = Literal["cli", "admin", "scheduler"]


class SyncJobBusy(DocschatError):
    """Another sync job holds the lock; `running` is that job (None when it records nothing)."""

    def __init__(self, running: dict[str, Any] | None) -> None:
        self.running = running
        if running:
            message = (f"another sync is running (job {running['id']}, started by {running['trigger']} "
                       f"at {running['started_at'] or running['created_at']}); try again when it ends")
        else:
            message = "another sync is running on this database; try again when it ends"
        super().__init__(message)


@dataclass
class PlannedSource:
    source: Source
    commit: str | None
    config_hash: str
    row_id: int = 0


@dataclass
class SyncJob:
    """A claimed job: it holds the lease (renewed by `heartbeat`) and owns `conn` until `run_sync_job` ends."""

    id: uuid.UUID
    trigger: Trigger
    conn: asyncpg.Connection
    pool: asyncpg.Pool
    config: SourcesConfig
    planned: list[PlannedSource] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # unchanged since their last sync
    done: int = 0  # embedding progress of the running step
    total: int = 0
    only: str | None = None  # the one source asked for: never "everything", even when it is the only one
    heartbeat: asyncio.Task[None] | None = None  # renews the lease while the job runs
    full: bool = False  # compose every page, even one whose key is unchanged (`docschat sync --full`)

    @property
    def everything(self) -> bool:
        """All configured sources at once: then rows of sources no longer configured go too."""
        return self.only is None and len(self.planned) == len(self.config.sources)

    def progress(self) -> dict[str, int]:
        return {"done": self.done, "total": self.total}


_RUNNING_JOB = """
select job_id from public.docs_sync_run where state in ('queued', 'running') order by id desc limit 1
"""
_MARK_INTERRUPTED = """
update public.docs_sync_run
set state = 'interrupted', finished_at = clock_timestamp(), error = 'the process running it stopped'
where state in ('queued', 'running')
"""
_INSERT_QUEUED = """
insert into public.docs_sync_run (job_id, source, trigger, state, commit, config_hash)
values ($1, $2, $3, 'queued', $4, $5)
returning id
"""
_MARK_RUNNING = """
update public.docs_sync_run set state = 'running', started_at = clock_timestamp() where id = any($1::bigint[])
"""
_FINISH = """
update public.docs_sync_run
set state = $2, finished_at = clock_timestamp(), error = $3, report = $4::jsonb
where id = $1
"""
_JOB_ROWS = """
select id, job_id, source, trigger, state, commit, started_at, finished_at, error, report, created_at
from public.docs_sync_run where job_id = $1 order by id
"""


async def claim_sync_job(
    pool: asyncpg.Pool,
    settings: Settings,
    *,
    trigger: Trigger,
    config: SourcesConfig | None = None,
    only: str | None = None,
    only_if_changed: bool = False,
    check_interval_seconds: float | None = None,
    wait: bool = False,
    full: bool = False,
) -> SyncJob:
    """Take the job lock and plan the job (SyncJobBusy when another job runs, unless `wait`).

    `config` defaults to the configured sources; `only` names one of them. With
    `only_if_changed` a source is left out when its branch head and config are those of its last
    successful sync and it has rows: a re-check of an unchanged head composes and embeds nothing.
    `check_interval_seconds` records a scheduler re-check in docs_sync_schedule. The caller hands
    the job to `run_sync_job`, which releases the lease. `full`: every page is composed again,
    even one whose key (what composing it read) is unchanged.
    """
    config = config or load_sources(settings)
    sources = [config.source(only)] if only else list(config.sources)  # unknown name: before locking
    job_id, seconds = uuid.uuid4(), settings.sync_lease_seconds
    if wait:
        while not await take_lease(pool, job_id, seconds):
            await asyncio.sleep(min(0.5, seconds / 10))
    else:
        await _lease_or_name_the_holder(pool, job_id, seconds)
    job: SyncJob | None = None
    try:
        conn: asyncpg.Connection = await pool.acquire()
        try:
            await conn.execute(_MARK_INTERRUPTED)
            if check_interval_seconds is not None:
                await _record_check(conn, check_interval_seconds)
            job = SyncJob(job_id, trigger, conn, pool, config, only=only, full=full)
            job.heartbeat = asyncio.create_task(_heartbeat(pool, job_id, seconds))
            last_ok = {r["source"]: r for r in await conn.fetch("select * from public.docs_last_sync_runs()")}
            for source in sources:
                try:
                    commit: str | None = await asyncio.to_thread(head_commit, source)
                except DocschatError:
                    commit = None  # compose will fail and record the reason
                planned = PlannedSource(source, commit, config_hash(source, settings))
                previous = last_ok.get(source.name)
                if (
                    only_if_changed and commit is not None and previous is not None
                    and previous["ok_commit"] == commit and previous["ok_config_hash"] == planned.config_hash
                    and await conn.fetchval(
                        "select exists (select 1 from public.docs_section where source = $1)", source.name
                    )
                ):
                    job.skipped.append(source.name)
                    continue
                job.planned.append(planned)
            for planned in job.planned:
                planned.row_id = await conn.fetchval(
                    _INSERT_QUEUED, job.id, planned.source.name, trigger, planned.commit, planned.config_hash
                )
        except BaseException:
            await pool.release(conn)
            raise
    except BaseException:
        await _stop_heartbeat(job)
        async with pool.acquire() as other:
            await release_lease(other, job_id)
        raise
    return job


async def take_lease(pool: asyncpg.Pool, owner: uuid.UUID, seconds: float) -> bool:
    """Whether `owner` now holds the sync lease (one statement: safe behind a pooler)."""
    async with pool.acquire() as conn:
        return bool(await conn.fetchval("select public.docs_lease_take($1, $2, $3)", SYNC_LEASE, owner,
                                        float(seconds)))


async def release_lease(conn: asyncpg.Connection, owner: uuid.UUID) -> None:
    """Let the sync lease go if `owner` holds it (a job's own connection, or `index clear`'s
    transaction)."""
    await conn.fetchval("select public.docs_lease_release($1, $2)", SYNC_LEASE, owner)


async def _heartbeat(pool: asyncpg.Pool, owner: uuid.UUID, seconds: float) -> None:
    """Renew the lease every third of its life. A renewal that fails (the database is briefly
    away) is tried again at the next beat; one that finds the lease taken by another job says so
    in the log and stops (the apply step's own lock still keeps two syncs' writes apart)."""
    while True:
        await asyncio.sleep(seconds / 3)
        try:
            async with pool.acquire() as conn:
                held = await conn.fetchval("select public.docs_lease_renew($1, $2, $3)", SYNC_LEASE, owner,
                                           float(seconds))
        except (asyncpg.PostgresError, OSError, asyncpg.InterfaceError) as exc:
            log.warning("sync_lease_renewal_failed", job=str(owner), error=type(exc).__name__)
            continue
        if not held:
            log.error("sync_lease_lost", job=str(owner))
            return


async def _stop_heartbeat(job: SyncJob | None) -> None:
    if job is not None and job.heartbeat is not None:
        job.heartbeat.cancel()
        await asyncio.gather(job.heartbeat, return_exceptions=True)


# How long a refused claim waits for the job holding the lock to be named (its rows are written
# after it reads each source's branch head) or for the lock to come free (a scheduler re-check that
# found nothing to do holds it for as long as those reads take).
BUSY_GRACE_SECONDS = 3.0


async def _lease_or_name_the_holder(pool: asyncpg.Pool, owner: uuid.UUID, seconds: float) -> None:
    """Take the job lease, or raise SyncJobBusy naming the running job: a refusal that named none
    (two reindexes clicked together) left the console unable to follow the job that won. No
    connection is kept between tries: a small pool serves the chat meanwhile."""
    deadline = time.monotonic() + BUSY_GRACE_SECONDS
    while True:
        if await take_lease(pool, owner, seconds):
            return
        async with pool.acquire() as conn:
            holder = await running_job(conn)
        if holder is not None or time.monotonic() > deadline:
            raise SyncJobBusy(holder)
        await asyncio.sleep(0.05)


@dataclass
class SyncJobOutcome:
    view: dict[str, Any]  # as job_view shows it
    reports: list[SyncReport]  # one per sync step (one for a whole or one-source job)


async def run_sync_job(
    job: SyncJob,
    settings: Settings,
    provider: EmbeddingProvider | None,
    *,
    progress: ProgressCallback | None = None,
    wait_for_lock: bool = False,
) -> SyncJobOutcome:
    """Sync the planned sources, record each one's result, release the lease.

    A failure of the whole step (embedding, database) is recorded on its sources and re-raised.
    """
    reports: list[SyncReport] = []
    try:
        if job.planned:
            # Opened (and read, written, closed) in worker threads: SQLite's file I/O stays off the loop.
            cache = await asyncio.to_thread(EmbeddingCache, cache_path(settings.docschat_home))
            try:
                # Each source is read at the commit that was planned, not wherever its branch is by now.
                pinned = {p.source.name: replace(p.source, branch=p.commit) if p.commit else p.source
                          for p in job.planned}
                config = replace(job.config, sources=tuple(pinned.get(s.name, s) for s in job.config.sources))
                steps = [[p for p in job.planned]] if job.everything else [[p] for p in job.planned]
                for step in steps:
                    reports.append(await _run_step(job, step, config, settings, provider, cache, progress,
                                                   wait_for_lock))
            finally:
                await asyncio.to_thread(cache.close)
    finally:
        try:
            await _stop_heartbeat(job)
            await release_lease(job.conn, job.id)
        finally:
            await job.pool.release(job.conn)
    view = await job_view(job.pool, job.id) if job.planned else None
    return SyncJobOutcome(
        view or {"id": str(job.id), "trigger": job.trigger, "state": "unchanged", "skipped": job.skipped,
                 "sources": []},
        reports,
    )


async def _run_step(
    job: SyncJob, step: list[PlannedSource], config: SourcesConfig, settings: Settings,
    provider: EmbeddingProvider | None, cache: EmbeddingCache, progress: ProgressCallback | None,
    wait_for_lock: bool,
) -> SyncReport:
    conn = job.conn
    await conn.execute(_MARK_RUNNING, [p.row_id for p in step])
    started = time.perf_counter()

    def track(done: int, total: int) -> None:
        job.done, job.total = done, total
        if progress:
            progress(done, total)

    try:
        report = await sync_sources(
            job.pool, config, settings, provider, only=None if job.everything else step[0].source.name,
            cache=cache, progress=track, wait_for_lock=wait_for_lock, full=job.full,
        )
    except asyncio.CancelledError:
        for planned in step:
            await conn.execute(_FINISH, planned.row_id, "interrupted", "the server stopped during the sync", "{}")
        raise
    except Exception as exc:
        error = describe_error(exc)
        log.warning("sync_job_failed", job=str(job.id), error=error[:200])
        seconds = json.dumps({"seconds": round(time.perf_counter() - started, 3)})
        for planned in step:
            await conn.execute(_FINISH, planned.row_id, "error", error[:1000], seconds)
        raise
    by_name = {s.name: s for s in report.sources}
    for planned in step:
        source_report = by_name.get(planned.source.name)
        data = {
            "pages": source_report.pages if source_report else 0,
            "chunks": source_report.chunks if source_report else 0,
            "new": source_report.new if source_report else 0,
            "changed": source_report.changed if source_report else 0,
            "unchanged": source_report.unchanged if source_report else 0,
            "deleted": source_report.deleted if source_report else 0,
            "undeclared_pages": source_report.undeclared_pages if source_report else 0,
            # Embedding is done once for the step: its figures are the step's.
            "embedded": report.embedded, "cache_hits": report.cache_hits,
            "embedding_model": report.embedding_model, "seconds": report.seconds,
            "warnings": len(report.warnings),
            # Not in the index until fixed: the sync exits 1 for them, status names them.
            "skipped_pages": source_report.skipped_pages if source_report else [],
        }
        failure = source_report.error if source_report else None
        await conn.execute(_FINISH, planned.row_id, "error" if failure else "ok", failure, json.dumps(data))
        log.info("sync_job_source_done", job=str(job.id), source=planned.source.name, trigger=job.trigger,
                 commit=(planned.commit or "")[:12], ok=failure is None, embedded=report.embedded)
    return report


async def _record_check(conn: asyncpg.Connection, interval_seconds: float) -> None:
    """The scheduler's re-check happens now (under the lease)."""
    await conn.execute(
        """
        insert into public.docs_sync_schedule as s (id, checked_at, next_check_at, checks)
        values (true, clock_timestamp(), clock_timestamp() + make_interval(secs => $1), 1)
        on conflict (id) do update set
          checked_at = excluded.checked_at, next_check_at = excluded.next_check_at, checks = s.checks + 1
        """,
        float(interval_seconds),
    )


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


async def _job_from_rows(rows: list[asyncpg.Record]) -> dict[str, Any] | None:
    if not rows:
        return None
    states = {r["state"] for r in rows}
    if states & {"queued", "running"}:
        state = "running"
    elif "interrupted" in states:
        state = "interrupted"
    elif "error" in states:
        state = "error"
    else:
        state = "ok"
    started = [r["started_at"] for r in rows if r["started_at"] is not None]
    finished = [r["finished_at"] for r in rows if r["finished_at"] is not None]
    return {
        "id": str(rows[0]["job_id"]),
        "trigger": rows[0]["trigger"],
        "state": state,
        "created_at": _iso(rows[0]["created_at"]),
        "started_at": _iso(min(started)) if started else None,
        "finished_at": _iso(max(finished)) if finished and state != "running" else None,
        "sources": [
            {
                "source": r["source"], "state": r["state"], "commit": r["commit"],
                "started_at": _iso(r["started_at"]), "finished_at": _iso(r["finished_at"]),
                "error": r["error"], "report": json.loads(r["report"]) if isinstance(r["report"], str) else r["report"],
            }
            for r in rows
        ],
    }


async def sync_lock_held(conn: asyncpg.Connection) -> bool:
    """Whether some job holds the sync lease (taken and not lapsed)."""
    return bool(await conn.fetchval("select public.docs_lease_held($1)", SYNC_LEASE))


async def job_view(pool: asyncpg.Pool, job_id: uuid.UUID) -> dict[str, Any] | None:
    """A job's state and per-source summary, from the database (any process can answer)."""
    async with pool.acquire() as conn:
        job = await _job_from_rows(await conn.fetch(_JOB_ROWS, job_id))
        if job and job["state"] == "running" and not await sync_lock_held(conn):
            # The lease is let go only after the rows are finished: read them again, in case the job
            # ended between the two reads. Still running without the lease: its process died.
            job = await _job_from_rows(await conn.fetch(_JOB_ROWS, job_id))
            if job and job["state"] == "running":
                job["state"] = "interrupted"  # the next job will mark its rows
        return job


async def running_job(conn: asyncpg.Connection) -> dict[str, Any] | None:
    """The job holding the lease, when it records itself (None when no job runs)."""
    if not await sync_lock_held(conn):
        return None
    return await _newest_unfinished_job(conn)


async def interrupted_job(conn: asyncpg.Connection) -> dict[str, Any] | None:
    """The job a killed process left: its rows still queued or running while no job holds the
    lease (it is let go only after the rows are finished). The next job marks them."""
    if await sync_lock_held(conn):
        return None
    job = await _newest_unfinished_job(conn)
    if job is not None:
        job["state"] = "interrupted"
    return job


async def _newest_unfinished_job(conn: asyncpg.Connection) -> dict[str, Any] | None:
    job_id = await conn.fetchval(_RUNNING_JOB)
    return await _job_from_rows(await conn.fetch(_JOB_ROWS, job_id)) if job_id else None
