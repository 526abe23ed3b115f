"""Sync jobs: one at a time across every process, each source's run recorded in docs_sync_run.

A job holds a session advisory lock on SYNC_LOCK_KEY for its whole life (compose, embed, write),
on one pooled connection, and writes through that same connection: the sync's own
transaction-level lock on the key is then re-entrant, while any other process (another server, a
CLI sync) sees the key taken. A job that finds the key taken raises SyncJobBusy with the running
job, read from docs_sync_run. Rows left 'running' by a process that died are marked 'interrupted'
by the next job, which can only start once the dead session's lock is gone.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Literal

import asyncpg

from app.config import Settings
from app.corpus.compose import DocsSource, compose_corpus
from app.embeddings.base import EmbeddingProvider
from app.embeddings.cache import EmbeddingCache, cache_path
from app.errors import DocschatError
from app.logging import get_logger
from app.ops.sources import SourceSpec, head_commit, pick_sources
from app.sync import SYNC_LOCK_KEY, sync_chunks

log = get_logger(__name__)

Trigger = Literal["cli", "admin", "scheduler"]


class SyncJobBusy(DocschatError):
    """Another sync job holds the lock; `running` is that job (None when it records nothing)."""

    def __init__(self, running: dict[str, Any] | None) -> None:
        self.running = running
        if running:
            message = (f"a sync is already running (job {running['id']}, started by {running['trigger']} "
                       f"at {running['started_at']}); try again when it ends")
        else:
            message = "a sync is already running on this database; try again when it ends"
        super().__init__(message)


@dataclass
class PlannedSource:
    spec: SourceSpec
    commit: str | None
    config_hash: str
    row_id: int = 0
    done: int = 0
    total: int = 0


@dataclass
class SyncJob:
    """A claimed job: it owns `conn` (holding the lock) until `run_sync_job` ends."""

    id: uuid.UUID
    trigger: Trigger
    conn: asyncpg.Connection
    pool: asyncpg.Pool
    planned: list[PlannedSource] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # unchanged since the last sync
    state: str = "running"

    def progress(self) -> dict[str, dict[str, int]]:
        return {p.spec.name: {"done": p.done, "total": p.total} for p in self.planned}


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
_MARK_RUNNING = "update public.docs_sync_run set state = 'running', started_at = clock_timestamp() where id = $1"
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
    source: str | None = None,
    only_if_changed: bool = False,
    check_interval_seconds: float | None = None,
) -> SyncJob:
    """Take the sync lock and plan the job (raises SyncJobBusy when another job runs).

    With `only_if_changed` a source is left out when its branch head and settings are the ones of
    its last successful sync and it has rows: a re-check of an unchanged head composes and embeds
    nothing. `check_interval_seconds` records a scheduler re-check in docs_sync_schedule. The
    caller must hand the job to `run_sync_job`, which releases the lock.
    """
    specs = pick_sources(settings, source)  # an unknown source fails before anything is locked
    conn: asyncpg.Connection = await pool.acquire()
    try:
        if not await conn.fetchval("select pg_try_advisory_lock($1)", SYNC_LOCK_KEY):
            raise SyncJobBusy(await running_job(conn))
        try:
            await conn.execute(_MARK_INTERRUPTED)
            if check_interval_seconds is not None:
                await _record_check(conn, check_interval_seconds)
            job = SyncJob(uuid.uuid4(), trigger, conn, pool)
            last_ok = {r["source"]: r for r in await conn.fetch("select * from public.docs_last_sync_runs()")}
            for spec in specs:
                try:
                    commit: str | None = await asyncio.to_thread(head_commit, spec.docs.repo, spec.docs.branch)
                except DocschatError:
                    commit = None  # the run records the reason
                planned = PlannedSource(spec, commit, spec.config_hash(settings))
                previous = last_ok.get(spec.name)
                if (
                    only_if_changed and commit is not None and previous is not None
                    and previous["ok_commit"] == commit and previous["ok_config_hash"] == planned.config_hash
                    and await _has_rows(conn, spec.name)
                ):
                    job.skipped.append(spec.name)
                    continue
                job.planned.append(planned)
            for planned in job.planned:
                planned.row_id = await conn.fetchval(
                    _INSERT_QUEUED, job.id, planned.spec.name, trigger, planned.commit, planned.config_hash
                )
        except BaseException:
            await conn.execute("select pg_advisory_unlock($1)", SYNC_LOCK_KEY)
            raise
    except BaseException:
        await pool.release(conn)
        raise
    return job


async def _has_rows(conn: asyncpg.Connection, source: str) -> bool:
    return bool(await conn.fetchval("select exists (select 1 from public.docs_section)"))


async def run_sync_job(
    job: SyncJob,
    settings: Settings,
    provider: EmbeddingProvider | None,
) -> dict[str, Any]:
    """Sync each planned source in turn (one failing does not stop the others); release the lock."""
    try:
        if job.planned:
            # SQLite objects stay in the thread that made them: the cache lives on the loop's thread.
            cache = EmbeddingCache(cache_path(settings.docschat_home))
            try:
                for planned in job.planned:
                    await _run_one(job, planned, settings, provider, cache)
            finally:
                cache.close()
    finally:
        try:
            await job.conn.execute("select pg_advisory_unlock($1)", SYNC_LOCK_KEY)
        finally:
            await job.pool.release(job.conn)
    view = await job_view(job.pool, job.id) if job.planned else None
    job.state = view["state"] if view else "unchanged"
    return view or {"id": str(job.id), "state": "unchanged", "skipped": job.skipped, "sources": []}


async def _run_one(
    job: SyncJob, planned: PlannedSource, settings: Settings, provider: EmbeddingProvider | None,
    cache: EmbeddingCache | None,
) -> None:
    conn = job.conn
    await conn.execute(_MARK_RUNNING, planned.row_id)
    started = time.perf_counter()

    def progress(done: int, total: int) -> None:
        planned.done, planned.total = done, total

    try:
        if planned.commit is None:
            # Raises the reason the head could not be read (missing repo, branch).
            await asyncio.to_thread(head_commit, planned.spec.docs.repo, planned.spec.docs.branch)
        # Compose the very commit that was planned, not whatever the branch points at by now.
        at_commit = DocsSource(planned.spec.docs.repo, planned.commit or planned.spec.docs.branch,
                               planned.spec.docs.docs_dir)
        composed = await asyncio.to_thread(compose_corpus, at_commit, settings)
        report = await sync_chunks(conn, composed, provider, cache=cache, progress=progress)
    except asyncio.CancelledError:
        await conn.execute(_FINISH, planned.row_id, "interrupted", "the server stopped during the sync", "{}")
        raise
    except Exception as exc:  # noqa: BLE001 - any failure is recorded for the operator, the job goes on
        error = str(exc).strip().splitlines()[0] if isinstance(exc, DocschatError) and str(exc).strip() else (
            f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}".rstrip(": ")
        )
        log.warning("sync_job_source_failed", job=str(job.id), source=planned.spec.name, error=error[:200])
        await conn.execute(_FINISH, planned.row_id, "error", error[:1000],
                           json.dumps({"seconds": round(time.perf_counter() - started, 3)}))
        return
    data = report.to_dict()
    data["warnings"] = len(report.warnings)
    data["seconds"] = round(time.perf_counter() - started, 3)
    await conn.execute(_FINISH, planned.row_id, "ok", None, json.dumps(data))
    log.info("sync_job_source_done", job=str(job.id), source=planned.spec.name, trigger=job.trigger,
             commit=(planned.commit or "")[:12], embedded=report.embedded, seconds=data["seconds"])


async def _record_check(conn: asyncpg.Connection, interval_seconds: float) -> None:
    """The scheduler's re-check happens now (under the lock)."""
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
    """Whether some session holds the sync lock (pg_locks splits a bigint key in two oids)."""
    return bool(await conn.fetchval(
        "select exists (select 1 from pg_catalog.pg_locks where locktype = 'advisory' and granted"
        " and classid = $1::bigint::oid and objid = $2::bigint::oid and objsubid = 1)",
        SYNC_LOCK_KEY >> 32, SYNC_LOCK_KEY & 0xFFFFFFFF,
    ))


async def job_view(pool: asyncpg.Pool, job_id: uuid.UUID) -> dict[str, Any] | None:
    """A job's state and per-source summary, from the database (any process can answer)."""
    async with pool.acquire() as conn:
        job = await _job_from_rows(await conn.fetch(_JOB_ROWS, job_id))
        if job and job["state"] == "running" and not await sync_lock_held(conn):
            job["state"] = "interrupted"  # its process died; the next job will mark its rows
        return job


async def running_job(conn: asyncpg.Connection) -> dict[str, Any] | None:
    """The job holding the lock, when it records itself (None when no job runs)."""
    if not await sync_lock_held(conn):
        return None
    running_id = await conn.fetchval(_RUNNING_JOB)
    return await _job_from_rows(await conn.fetch(_JOB_ROWS, running_id)) if running_id else None
