"""The sync job's lease (docs_lease): one job at a time, renewed while it runs, lapsing when its
process died; no session state, so it holds behind a pooler in transaction mode (.ci/run step 3)."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from app.config import get_settings
from app.indexing.clear import clear_index
from app.indexing.jobs import SYNC_LEASE, SyncJobBusy, claim_sync_job, interrupted_job, run_sync_job, running_job
from app.indexing.sync_apply import SYNC_LOCK_KEY
from tests.helpers import make_docs_repo
from tests.test_admin import DOCS


@pytest.fixture
def docs_env(db_env, pool, tmp_path, monkeypatch):
    monkeypatch.setenv("DOCS_REPO", str(make_docs_repo(tmp_path / "repo", DOCS)))
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    monkeypatch.setenv("SYNC_LEASE_SECONDS", "1")
    get_settings.cache_clear()
    return get_settings()


async def _lease(pool):
    async with pool.acquire() as conn:
        return await conn.fetchrow("select owner, expires_at from public.docs_lease where name = $1", SYNC_LEASE)


async def _until(condition, what: str, timeout: float = 15.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not await condition():
        assert asyncio.get_running_loop().time() < deadline, what
        await asyncio.sleep(0.05)


async def _refused(pool, settings) -> SyncJobBusy:
    """The refusal of a second claim (a claim that wins is run to its end, so its connection goes
    back to the pool, and the test fails)."""
    try:
        intruder = await claim_sync_job(pool, settings, trigger="scheduler")
    except SyncJobBusy as busy:
        return busy
    await run_sync_job(intruder, settings, None)
    pytest.fail("a second job was claimed while the first held the lease")


async def test_a_running_job_renews_its_lease_and_a_second_claim_is_refused_past_its_length(docs_env, pool) -> None:
    job = await claim_sync_job(pool, docs_env, trigger="admin")
    try:
        first = await _lease(pool)
        assert first["owner"] == job.id
        renewals: list = []

        async def renewed_twice() -> bool:
            row = await _lease(pool)
            if row["expires_at"] > (renewals[-1] if renewals else first["expires_at"]):
                renewals.append(row["expires_at"])
            return len(renewals) >= 2

        # Two renewals: more than the lease's one second has passed since it was taken.
        await _until(renewed_twice, "the heartbeat never renewed the lease")
        refused = await _refused(pool, docs_env)
        assert refused.running is not None and refused.running["id"] == str(job.id)
    finally:
        outcome = await run_sync_job(job, docs_env, None)  # the job's connection goes back to the pool
    assert outcome.view["state"] == "ok"
    assert await _lease(pool) is None  # let go at the end
    again = await claim_sync_job(pool, docs_env, trigger="cli")
    await run_sync_job(again, docs_env, None)


async def test_the_job_of_a_process_that_died_is_interrupted_and_the_next_starts_once_its_lease_lapsed(
    docs_env, pool
) -> None:
    dead = uuid.uuid4()
    async with pool.acquire() as conn:  # what a killed job leaves: its lease (no heartbeat now) and rows
        assert await conn.fetchval("select public.docs_lease_take($1, $2, 1)", SYNC_LEASE, dead)
        await conn.execute("insert into public.docs_sync_run (job_id, source, trigger, state)"
                           " values ($1, 'docs', 'admin', 'running')", dead)
        assert (await running_job(conn))["id"] == str(dead) and await interrupted_job(conn) is None
    await _refused(pool, docs_env)

    async def lapsed() -> bool:
        async with pool.acquire() as conn:
            return not await conn.fetchval("select public.docs_lease_held($1)", SYNC_LEASE)

    await _until(lapsed, "the lease never lapsed")
    async with pool.acquire() as conn:
        assert (await interrupted_job(conn))["id"] == str(dead)
    job = await claim_sync_job(pool, docs_env, trigger="cli")
    assert (await run_sync_job(job, docs_env, None)).view["state"] == "ok"
    async with pool.acquire() as conn:
        assert await conn.fetchval("select state from public.docs_sync_run where job_id = $1", dead) == "interrupted"


async def test_of_claims_made_at_once_exactly_one_wins(docs_env, pool) -> None:
    results = await asyncio.gather(*(claim_sync_job(pool, docs_env, trigger="admin") for _ in range(6)),
                                   return_exceptions=True)
    jobs = [r for r in results if not isinstance(r, BaseException)]
    for job in jobs:
        await run_sync_job(job, docs_env, None)
    assert len(jobs) == 1, results
    assert all(isinstance(r, SyncJobBusy) for r in results if r is not jobs[0])


async def test_a_clear_refused_by_a_running_apply_leaves_no_lease_behind(docs_env, pool) -> None:
    job = await claim_sync_job(pool, docs_env, trigger="cli")
    await run_sync_job(job, docs_env, None)
    async with pool.acquire() as holder, holder.transaction():
        await holder.execute("select pg_advisory_xact_lock($1)", SYNC_LOCK_KEY)  # a sync's apply step
        with pytest.raises(SyncJobBusy):
            await clear_index(pool)
    assert await _lease(pool) is None
    assert await clear_index(pool) == 5
