"""DATABASE_READ_URL against a real streaming replica (pg_basebackup -R from the embedded
binaries): retrieval reads the replica, every write goes to the primary, and while the replica
lags a sync a visitor gets the older index (never an error) and /healthz says how far behind it is."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import tempfile
from pathlib import Path

import asyncpg
import httpx
import pytest

from app.config import get_settings
from app.db import migrate
from tests.helpers import docschat_in_process, parse_sse, seed_docs, wait_until
from tests.replica import ReplicaPair
from tests.test_chat import DOCS, ask

pytestmark = pytest.mark.slow  # two Postgres servers of its own

# Everything the primary has committed: its insert position. Not pg_current_wal_lsn(), where WAL
# has been written out: both servers of the pair commit with synchronous_commit off, so the last
# commits wait in the primary's WAL buffers for up to 3 × wal_writer_delay, and a wait on that
# position passed while the replica lacked them (design/pooler-and-replica.md).
COMMITTED = "select pg_catalog.pg_current_wal_insert_lsn()::text"
REPLAYED = "select pg_catalog.pg_last_wal_replay_lsn() >= $1::text::pg_lsn"


@pytest.fixture(scope="module")
def pair():
    folder = Path(tempfile.mkdtemp(prefix="docschat-test-replica-"))
    os.chmod(folder, 0o755)  # the servers run as their own user when the tests run as root
    servers = ReplicaPair(folder)
    if (missing := servers.missing()) is not None:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip(missing)
    try:
        servers.start()
        asyncio.run(_sql(servers.url("primary"), "create database docschat"))
        migrate.upgrade(servers.url("primary", "docschat"))
        yield servers
    finally:
        servers.stop()


async def _sql(url: str, statement: str, *args):
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval(statement, *args)
    finally:
        await conn.close()


def sql(url: str, statement: str, *args):
    return asyncio.run(_sql(url, statement, *args))


def replay_everything_committed(primary: str, replica: str, what: str) -> None:
    lsn = sql(primary, COMMITTED)
    # Asked of the replica's `postgres` database: the replay position is the server's, and the
    # docs database may not exist there yet (its creation not replayed: a failed CI run).
    server = replica.rsplit("/", 1)[0] + "/postgres"
    wait_until(lambda: sql(server, REPLAYED, lsn), what=what)


def pause_replay(replica: str) -> None:
    """Replay stops before the next record it reads (a request until then: wait for the state)."""
    sql(replica, "select pg_catalog.pg_wal_replay_pause()")
    wait_until(lambda: sql(replica, "select pg_catalog.pg_get_wal_replay_pause_state()") == "paused",
               what="the replica's replay to pause")


def _status_replica() -> dict:
    result = docschat_in_process("status", "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout)["replica"]


def _sources(response: httpx.Response) -> list[str]:
    assert response.status_code == 200, response.text
    return [p["url"] for p in parse_sse(response.text) if isinstance(p, dict) and p["type"] == "source-url"]


def test_retrieval_reads_the_replica_and_a_lagging_replica_serves_the_older_index(
    pair, fake_gemini, monkeypatch
) -> None:
    from tests.conftest import LiveServer

    primary, replica = pair.url("primary", "docschat"), pair.url("replica", "docschat")
    monkeypatch.setenv("DATABASE_URL", primary)
    monkeypatch.setenv("DATABASE_READ_URL", replica)
    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "100")
    get_settings.cache_clear()
    seed_docs(primary, DOCS)
    replay_everything_committed(primary, replica, "the replica to replay the first sync")

    server = LiveServer().start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            health = client.get("/healthz").json()
            assert health["status"] == "ok" and health["replica"]["replica"] is True
            question = "How do I embed the widget with a script tag?"
            assert any(u.endswith("/docs/widget#embed-the-widget") for u in _sources(ask(client, question)))
            # The question's embedding was stored on the primary (a replica refuses writes).
            assert sql(primary, "select count(*) from public.docs_query_embedding") >= 1

            # The replica stops replaying; the primary syncs the docs without the widget page.
            pause_replay(replica)
            seed_docs(primary, {k: v for k, v in DOCS.items() if k != "widget.mdx"})
            assert sql(primary, "select count(*) from public.docs_section where page like 'widget%'") == 0

            # Right after the sync commits, its last WAL may still sit in the primary's buffers
            # (synchronous_commit off): the lag counts it all the same. And so for any commit:
            # each of these small ones is read back before the WAL writer's next round, about
            # always (lag 0 in every round with pg_current_wal_lsn).
            health = client.get("/healthz").json()
            assert health["status"] == "ok" and health["replica"]["lag_bytes"] > 0, health
            for _ in range(5):
                before = client.get("/healthz").json()["replica"]["lag_bytes"]
                sql(primary, "select pg_catalog.pg_current_xact_id()::text")  # a transaction, committed
                after = client.get("/healthz").json()["replica"]
                assert after["lag_bytes"] > before and after["lag_seconds"] > 0, (before, after)
            # `docschat status` says the same.
            lagging = _status_replica()
            assert lagging["configured"] and lagging["replica"] and lagging["lag_bytes"] > 0, lagging
            text = docschat_in_process("status").stdout
            assert "replica: " in text and " bytes of WAL behind; last replayed transaction " in text, text
            # What a visitor sees meanwhile: the index as it was, answered, its sources as they were.
            stale = ask(client, question)
            assert any(u.endswith("/docs/widget#embed-the-widget") for u in _sources(stale))
            box = client.get("/docs/search", params={"q": "script tag widget"})
            assert box.status_code == 200, box.text
            assert [p["title"] for p in box.json()["results"]][:1] == ["Chat widget"]
            # The reply citing the deleted page is stored on the primary all the same.
            wait_until(lambda: sql(primary, "select count(*) from public.docs_chat_message"
                                            " where role = 'assistant' and sources::text like '%/docs/widget%'") >= 2,
                       what="the stale reply to be stored")

            sql(replica, "select pg_catalog.pg_wal_replay_resume()")
            wait_until(lambda: client.get("/healthz").json()["replica"]["lag_bytes"] == 0,
                       what="the replica to catch up")
            wait_until(lambda: _status_replica()["lag_bytes"] == 0, what="`docschat status` to say it caught up")
            fresh = _sources(ask(client, question))
            assert not any("/docs/widget" in u for u in fresh)
            box = client.get("/docs/search", params={"q": "script tag widget"})
            assert "Chat widget" not in [p["title"] for p in box.json()["results"]]
    finally:
        server.stop()
