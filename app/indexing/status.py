"""index_status: what `docschat status` and GET /admin/api/status report, from the database."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import asyncpg

from app.config import Settings
from app.corpus.sources import load_sources
from app.db.pool import open_read_pool, replica_lag
from app.errors import DatabaseError, DocschatError
from app.indexing.jobs import interrupted_job, running_job
from app.indexing.source_state import head_commit

_SCHEDULE = "select checked_at, next_check_at, checks from public.docs_sync_schedule"


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def describe_provider(settings: Settings, provider_model: str | None, answerer: Any) -> dict[str, Any]:
    """The embedding provider and model in use, and what writes the answers (extractive: no model)."""
    return {
        "embedding_provider": settings.embedding_provider,
        "embedding_model": provider_model,
        "answerer": answerer.name,
        "chat_model": getattr(answerer, "model", None),
    }


async def replica_status(pool: asyncpg.Pool, settings: Settings, read_pool: asyncpg.Pool | None = None) -> dict[str, Any]:
    """The read replica's lag as /healthz reports it (`replica`, `lag_bytes`, `lag_seconds`) with
    `configured: true`; `configured: false` without DATABASE_READ_URL; `error` when it cannot be
    read. `read_pool`: the server's; None opens one connection to DATABASE_READ_URL (the CLI)."""
    if read_pool is None and not settings.database_read_url:
        return {"configured": False}
    try:
        if read_pool is not None:
            return {"configured": True, **await replica_lag(pool, read_pool)}
        async with await open_read_pool(settings, min_size=1, max_size=1) as opened:
            return {"configured": True, **await replica_lag(pool, opened)}
    except DatabaseError as exc:  # the URL's own message: server named, password hidden
        return {"configured": True, "error": str(exc)}
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        return {"configured": True, "error": f"the read replica cannot be read: {type(exc).__name__}"}


async def index_status(
    pool: asyncpg.Pool,
    settings: Settings,
    *,
    provider_model: str | None,
    answerer: Any,
    scheduler: dict[str, Any] | None = None,
    read_pool: asyncpg.Pool | None = None,
) -> dict[str, Any]:
    """Per source counts and last sync, provider, scheduler, running job, gaps, database size, and
    the read replica's lag (replica_status; `read_pool` as there)."""
    async with pool.acquire() as conn:
        counts = {r["source"]: r for r in await conn.fetch("select * from public.docs_index_counts()")}
        runs = {r["source"]: r for r in await conn.fetch("select * from public.docs_last_sync_runs()")}
        schedule = await conn.fetchrow(_SCHEDULE)
        job = await running_job(conn)
        # A sync that was killed: say so rather than show the sync before it as the last word.
        stopped = None if job else await interrupted_job(conn)
        gaps = await conn.fetchval(
            "select count(*) from public.docs_chat_gap where last_seen >= now() - make_interval(days => $1)",
            settings.gap_retention_days,
        )
        database_bytes = await conn.fetchval("select pg_catalog.pg_database_size(pg_catalog.current_database())")
        index_bytes = await conn.fetchval("select pg_catalog.pg_total_relation_size('public.docs_section')")

    configured = {s.name: s for s in load_sources(settings).sources}
    sources = []
    for name in [*configured, *sorted(set(counts) - set(configured))]:
        spec = configured.get(name)
        row = counts.get(name)
        last = runs.get(name)
        head: str | None = None
        head_error: str | None = None
        if spec is not None:
            try:
                head = await asyncio.to_thread(head_commit, spec)
            except DocschatError as exc:
                head_error = str(exc)
        sources.append({
            "name": name,
            "configured": spec is not None,
            "repo": str(spec.repo) if spec else None,
            "branch": spec.branch if spec else None,
            "dir": spec.dir if spec else None,
            "weight": spec.weight if spec else None,
            "default_audiences": list(spec.audiences) if spec else None,
            "pages": row["pages"] if row else 0,
            "chunks": row["chunks"] if row else 0,
            "chunks_by_model": _json(row["chunks_by_model"]) if row else {},
            "chunks_by_audience": _json(row["chunks_by_audience"]) if row else {},
            "head_commit": head,
            "head_error": head_error,
            "synced_commit": last["ok_commit"] if last else None,
            "up_to_date": bool(head and last and last["ok_commit"] == head and row),
            "last_sync": None if last is None else {
                "result": last["last_state"],
                "trigger": last["last_trigger"],
                "commit": last["last_commit"],
                "started_at": _iso(last["last_started_at"]),
                "finished_at": _iso(last["last_finished_at"]),
                "seconds": _seconds(last["last_report"]),
                "error": last["last_error"],
                "report": _json(last["last_report"]),
            },
        })
    return {
        "sources": sources,
        "totals": {
            "pages": sum(s["pages"] for s in sources),
            "chunks": sum(s["chunks"] for s in sources),
        },
        "provider": describe_provider(settings, provider_model, answerer),
        "scheduler": {
            "enabled": settings.sync_interval_seconds is not None,
            "interval_seconds": settings.sync_interval_seconds,
            "start_delay_seconds": settings.sync_start_delay_seconds,
            "last_check_at": _iso(schedule["checked_at"]) if schedule else None,
            "checks": schedule["checks"] if schedule else 0,
            "next_check_at": (scheduler or {}).get("next_check_at")
            or (_iso(schedule["next_check_at"]) if schedule and settings.sync_interval_seconds else None),
        },
        "running_job": job,
        "interrupted_job": stopped,
        "gaps": gaps,
        "database": {"size_bytes": database_bytes, "index_bytes": index_bytes},
        "replica": await replica_status(pool, settings, read_pool),
    }


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _seconds(report: Any) -> float | None:
    data = _json(report) or {}
    return data.get("seconds")
