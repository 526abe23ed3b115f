"""Retention (issue 34): old conversations, expired rate-limit rows and old question embeddings are
deleted by docs_prune_expired, which the server runs; /healthz never reads docs_section."""

from __future__ import annotations

import uuid

import asyncpg
import httpx
import pytest

from app.chat.retention import prune_expired
from app.config import get_settings
from app.db.status import count_sections
from tests.helpers import wait_until
from tests.test_admin import query

VECTOR = [0.0] * 767 + [1.0]


async def _session(conn: asyncpg.Connection, age_days: int, message_ages: list[int]) -> uuid.UUID:
    session = uuid.uuid4()
    await conn.execute(
        "insert into public.docs_chat_session (id, created_at, updated_at, audiences)"
        " values ($1, now() - make_interval(days => $2), now() - make_interval(days => $2), '{public}')",
        session, age_days,
    )
    for age in message_ages:
        await conn.execute(
            "insert into public.docs_chat_message (session_id, role, content, created_at)"
            " values ($1, 'user', 'q', now() - make_interval(days => $2))",
            session, age,
        )
    return session


async def _seed(conn: asyncpg.Connection) -> dict[str, uuid.UUID]:
    sessions = {
        "old": await _session(conn, 31, [40, 31]),          # unused for 31 days: goes, messages with it
        "recent": await _session(conn, 1, [45, 29, 1]),     # in use: only its 45-day-old message goes
        "edge": await _session(conn, 29, [29]),             # inside the window: kept whole
    }
    await conn.execute(
        "insert into public.docs_chat_limits (key, points, expire) values"
        " ('gone-1', 3, now() - interval '1 second'), ('gone-2', 9, now() - interval '2 days'),"
        " ('live', 1, now() + interval '1 hour')"
    )
    for key, age in (("old-q", 31), ("new-q", 2)):
        await conn.execute(
            "insert into public.docs_query_embedding (id, model, embedding, created_at)"
            " values ($1, 'm', $2, now() - make_interval(days => $3))",
            key, VECTOR, age,
        )
    return sessions


async def test_prune_expired_deletes_what_is_past_its_window_and_keeps_the_rest(conn, monkeypatch) -> None:
    monkeypatch.setenv("CHAT_RETENTION_DAYS", "30")
    get_settings.cache_clear()
    sessions = await _seed(conn)
    deleted = await prune_expired(conn, get_settings())
    assert deleted == {"sessions": 1, "messages": 1, "limits": 2, "query_embeddings": 1, "gaps": 0, "insights": 0}

    kept = {r["id"] for r in await conn.fetch("select id from public.docs_chat_session")}
    assert kept == {sessions["recent"], sessions["edge"]}
    ages = await conn.fetch(
        "select session_id, round(extract(epoch from now() - created_at) / 86400)::int as age"
        " from public.docs_chat_message order by session_id, age"
    )
    assert sorted((r["session_id"], r["age"]) for r in ages) == sorted(
        [(sessions["recent"], 1), (sessions["recent"], 29), (sessions["edge"], 29)]
    )
    assert [r["key"] for r in await conn.fetch("select key from public.docs_chat_limits")] == ["live"]
    assert [r["id"] for r in await conn.fetch("select id from public.docs_query_embedding")] == ["new-q"]
    # A second run finds nothing more.
    assert await prune_expired(conn, get_settings()) == {"sessions": 0, "messages": 0, "limits": 0,
                                                          "query_embeddings": 0, "gaps": 0, "insights": 0}


async def test_chat_retention_days_sets_the_window(conn, monkeypatch) -> None:
    monkeypatch.setenv("CHAT_RETENTION_DAYS", "7")
    get_settings.cache_clear()
    await _session(conn, 8, [8])
    young = await _session(conn, 6, [6])
    assert (await prune_expired(conn, get_settings()))["sessions"] == 1
    assert [r["id"] for r in await conn.fetch("select id from public.docs_chat_session")] == [young]


def test_chat_retention_days_rejects_nonsense(monkeypatch) -> None:
    from pydantic import ValidationError

    for bad in ("0", "-3", "soon"):
        monkeypatch.setenv("CHAT_RETENTION_DAYS", bad)
        get_settings.cache_clear()
        with pytest.raises(ValidationError, match="chat_retention_days"):
            get_settings()


async def _gap(conn: asyncpg.Connection, key: str, age_days: int) -> None:
    await conn.execute(
        "insert into public.docs_chat_gap (question_key, question, first_seen, last_seen, confidence, refused)"
        " values ($1, $1, now() - make_interval(days => $2), now() - make_interval(days => $2), 0.1, true)",
        key, age_days,
    )


async def test_gaps_past_gap_retention_days_are_pruned_with_the_rest(conn, monkeypatch) -> None:
    monkeypatch.setenv("GAP_RETENTION_DAYS", "90")
    get_settings.cache_clear()
    await _gap(conn, "hundred days", 100)
    await _gap(conn, "eighty days", 80)
    assert (await prune_expired(conn, get_settings()))["gaps"] == 1
    assert [r["question_key"] for r in await conn.fetch("select question_key from public.docs_chat_gap")] == [
        "eighty days"]
    monkeypatch.setenv("GAP_RETENTION_DAYS", "30")
    get_settings.cache_clear()
    assert (await prune_expired(conn, get_settings()))["gaps"] == 1
    # From psql, one argument: gaps keep their default window (90 days).
    await _gap(conn, "hundred days", 100)
    rows = await conn.fetch("select kind, deleted from public.docs_prune_expired(30)")
    assert dict((r["kind"], r["deleted"]) for r in rows)["gaps"] == 1


def test_the_server_prunes_on_its_own(offline, start_server) -> None:
    query(offline, "insert into public.docs_chat_limits (key, points, expire) values"
                   " ('gone', 1, now() - interval '1 minute'), ('live', 1, now() + interval '1 hour')")
    query(offline, "insert into public.docs_chat_session (id, updated_at) values ($1, now() - interval '90 days')",
          uuid.uuid4())
    query(offline, "insert into public.docs_chat_gap (question_key, question, last_seen, confidence, refused)"
                   " values ('old gap', 'old gap', now() - interval '100 days', 0.1, true)")
    start_server()
    wait_until(lambda: query(offline, "select count(*) from public.docs_chat_session")[0][0] == 0
               and query(offline, "select count(*) from public.docs_chat_gap")[0][0] == 0
               and [r["key"] for r in query(offline, "select key from public.docs_chat_limits")] == ["live"],
               what="the server to prune the expired rows")


async def test_health_count_reads_no_section(conn) -> None:
    """/healthz's count comes from docs_search_stats (one row per audience set), so a probe costs the
    same at any corpus size: within this transaction docs_section is never scanned."""
    await conn.execute(
        "insert into public.docs_search_stats (audiences, section_count)"
        " values ('{public}', 5), ('{internal}', 3), ('{internal,public}', 2)"
    )
    async with conn.transaction():
        counts = [await count_sections(conn, ["public"]) for _ in range(5)]
        scans = await conn.fetchrow(
            "select coalesce(seq_scan, 0) + coalesce(idx_scan, 0) as scans from pg_stat_xact_user_tables"
            " where relid = 'public.docs_section'::regclass"
        )
    assert counts == [7] * 5
    assert scans["scans"] == 0


def test_healthz_keeps_its_fields(offline, start_server) -> None:
    server = start_server()
    health = httpx.get(server.url + "/healthz", timeout=30).json()
    assert health["status"] == "ok" and health["database"] == "ok" and health["sections"] == 0
