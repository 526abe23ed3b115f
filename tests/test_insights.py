"""Insights (issue 48) through the real app: known traffic at every door, then every figure of
GET /admin/api/insights and `docschat insights` checked exactly. Real Postgres, real HTTP."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import asyncpg
import httpx
import pytest

from app.config import get_settings
from tests.helpers import docschat_in_process, parse_sse, seed_docs
from tests.test_judgment import CHECK_DOCS

TOKEN = "t0ken-for-the-insights-tests-0123456789"
AUTH = {"authorization": f"Bearer {TOKEN}"}
MCP_HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


def _today() -> str:
    return datetime.now(UTC).date().isoformat()


def _chat(client: httpx.Client, question: str) -> tuple[str, list[dict]]:
    """Ask in a session of its own; the answer's messageId and its source-url parts."""
    client.cookies.clear()
    response = client.post("/docs/chat", json={"message": question})
    assert response.status_code == 200, response.text
    parts = [p for p in parse_sse(response.text) if isinstance(p, dict)]
    assert parts[-1]["type"] == "finish"
    start = next(p for p in parts if p["type"] == "start")
    return start["messageId"], [p for p in parts if p["type"] == "source-url"]


def _rate(client: httpx.Client, cookie: str, key: str, rating: str) -> None:
    client.cookies.set("docs_chat_id", cookie)
    response = client.post("/docs/chat/feedback", json={"messageId": key, "rating": rating})
    assert response.status_code == 200 and response.json()["recorded"], response.text


def _mcp(client: httpx.Client, method: str, params: dict | None = None, **headers: str) -> httpx.Response:
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}
    return client.post("/mcp", json=body, headers={**MCP_HEADERS, **headers})


@pytest.fixture
def insights_env(offline, monkeypatch):
    import app.search.conversation as conversation

    monkeypatch.setenv("ADMIN_TOKEN", TOKEN)
    monkeypatch.setattr(conversation, "CHECK_SECTIONS", 1)  # as test_judgment's "partly" answer needs
    monkeypatch.setenv("LOW_CONFIDENCE", "0.5")
    monkeypatch.setenv("SEARCH_RATE_LIMIT", "600")
    get_settings.cache_clear()
    seed_docs(offline, CHECK_DOCS)
    return offline


# What each question becomes with CHECK_DOCS (test_judgment checks the judgments themselves).
ANSWERED = "How do I enable batching for my deployment with serve.batch?"
ANSWERED_AGAIN = "enable batching for my deployment with serve.batch"  # the same docs_gap_key
PARTLY = "Do wildcard redirects in docs.json take effect on Tier 4?"
# Issue 45: a term the docs lack ("Tier 6") is answered "partly", never refused offline.
PARTLY_ABSENT = "How do I raise my rate limit to Tier 6?"
REFUSED_OFFTOPIC = "What is the capital of France?"


def test_known_traffic_gives_exact_figures(insights_env, start_server) -> None:
    server = start_server()
    cited: dict[str, int] = {}
    with httpx.Client(base_url=server.url, timeout=60) as client:
        keys = {}
        cookies = {}
        for question in (ANSWERED, PARTLY, PARTLY_ABSENT, REFUSED_OFFTOPIC, ANSWERED_AGAIN):
            keys[question], sources = _chat(client, question)
            cookie = client.cookies.get("docs_chat_id")
            assert cookie is not None
            cookies[question] = cookie
            for url in dict.fromkeys(s["url"].split("#", 1)[0] for s in sources):
                cited[url] = cited.get(url, 0) + 1
        # The refusals cite nothing; the answers do.
        assert cited and sum(cited.values()) >= 3
        # 👍 on the first answer, 👎 on the partly one, and the second answer 👍 then changed to 👎.
        _rate(client, cookies[ANSWERED], keys[ANSWERED], "up")
        _rate(client, cookies[PARTLY], keys[PARTLY], "down")
        _rate(client, cookies[ANSWERED_AGAIN], keys[ANSWERED_AGAIN], "up")
        _rate(client, cookies[ANSWERED_AGAIN], keys[ANSWERED_AGAIN], "down")
        _rate(client, cookies[ANSWERED_AGAIN], keys[ANSWERED_AGAIN], "down")  # unchanged: counted once

        # The search box: searches run (5); submitted ones (mode=hybrid) that found nothing count per
        # normalized query; typed ones (mode=keyword) and one-letter ones are not queries.
        for params in ({"q": "batching", "mode": "hybrid"}, {"q": "Kubernetes helm", "mode": "hybrid"},
                       {"q": "  kubernetes   HELM ", "mode": "hybrid"}, {"q": "kubernet"},
                       {"q": "zeppelin", "mode": "hybrid"}, {"q": "k"}):
            response = client.get("/docs/search", params=params)
            assert response.status_code == 200
        # MCP: three requests served; one with an unknown token is refused and not counted.
        assert _mcp(client, "tools/list").status_code == 200
        assert _mcp(client, "tools/call", {"name": "search_docs", "arguments": {"query": "batching"}}).status_code == 200
        assert _mcp(client, "tools/call", {"name": "get_page", "arguments": {"url": "/redirects"}}).status_code == 200
        assert _mcp(client, "tools/list", authorization="Bearer nope").status_code == 401
        # llms.txt: three requests, the 304 included.
        first = client.get("/llms.txt")
        assert client.get("/llms.txt", headers={"if-none-match": first.headers["etag"]}).status_code == 304
        assert client.get("/llms-full.txt").status_code == 200

        response = client.get("/admin/api/insights", params={"since": "30d"}, headers=AUTH)
        assert response.status_code == 200, response.text
        result = response.json()

    today = _today()
    assert len(result["days"]) == 30 and result["days"][-1]["date"] == today and result["to"] == today
    assert all(d == {"date": d["date"], "questions": 0, "answered": 0, "partly": 0, "refused": 0, "helpful": 0,
                     "not_helpful": 0} for d in result["days"][:-1])
    assert result["days"][-1] == {"date": today, "questions": 5, "answered": 2, "partly": 2, "refused": 1,
                                  "helpful": 1, "not_helpful": 2}
    assert result["totals"]["helpful_rate"] == round(1 / 3, 4)
    assert len(result["doors"]) == 30 and all(
        d == {"date": d["date"], "chat": 0, "search": 0, "mcp": 0, "llms_txt": 0} for d in result["doors"][:-1])
    assert result["doors"][-1] == {"date": today, "chat": 5, "search": 5, "mcp": 3, "llms_txt": 3}
    assert {p["url"]: p["citations"] for p in result["top_pages"]} == cited
    assert sorted(result["search_no_results"], key=lambda m: (m["door"], m["query"])) == [
        {"door": "chat", "query": REFUSED_OFFTOPIC, "count": 1, "last_seen": today},
        {"door": "search", "query": "kubernetes   HELM", "count": 2, "last_seen": today},
        {"door": "search", "query": "zeppelin", "count": 1, "last_seen": today},
    ]
    questions = {q["question"]: q for q in result["top_questions"]}
    assert result["top_questions"][0] == {"question": ANSWERED_AGAIN, "count": 2, "answered": 2, "partly": 0,
                                          "refused": 0, "wordings": 1, "last_seen": today}
    assert questions[PARTLY]["count"] == 1 and questions[PARTLY]["partly"] == 1
    assert questions[PARTLY_ABSENT]["partly"] == questions[REFUSED_OFFTOPIC]["refused"] == 1
    assert len(result["top_questions"]) == 4

    # The command line reads the same rows (the server added its counts when the API was read).
    cli = docschat_in_process("insights", "--since", "30d", "--json")
    assert cli.returncode == 0, cli.stderr
    assert json.loads(cli.stdout) == result
    table = docschat_in_process("insights", "--since", "7d")
    assert table.returncode == 0, table.stderr
    assert "5 questions" in table.stdout and "helpful 33%" in table.stdout and "zeppelin" in table.stdout


def test_since_is_checked_and_the_api_needs_the_token(insights_env, start_server) -> None:
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        assert client.get("/admin/api/insights").status_code == 401
        assert client.get("/admin/api/insights", headers={"authorization": "Bearer wrong"}).status_code == 401
        for bad in ("0d", "367d", "30", "thirty", "1y", "-7d"):
            response = client.get("/admin/api/insights", params={"since": bad}, headers=AUTH)
            assert response.status_code == 400 and "since must be" in response.json()["detail"], bad
        for since, days in (("7d", 7), ("2w", 14), ("90d", 90), (None, 30)):
            response = client.get("/admin/api/insights", params={"since": since} if since else {}, headers=AUTH)
            assert response.status_code == 200 and len(response.json()["days"]) == days
    refused = docschat_in_process("insights", "--since", "1y", "--json")
    assert refused.returncode == 1 and "since must be" in json.loads(refused.stdout)["error"]


def test_near_duplicates_are_grouped_by_embedding(fake_gemini, clean_db, start_server, monkeypatch) -> None:
    """The fake embedder reads words of three letters or more: "… in v2?" is the same vector as
    "…?" (cosine 1) but another docs_gap_key; an unrelated question is a group of its own."""
    monkeypatch.setenv("ADMIN_TOKEN", TOKEN)
    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "100")
    get_settings.cache_clear()
    seed_docs(clean_db, CHECK_DOCS)
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=60) as client:
        for question in ("How can I reset my password?", "How can I reset my password in v2?",
                         "How can I reset my password in v2?", "Which regions host the servers?"):
            _chat(client, question)
        result = client.get("/admin/api/insights", params={"since": "7d"}, headers=AUTH).json()
    groups = [(q["question"], q["count"], q["wordings"]) for q in result["top_questions"]]
    assert groups == [("How can I reset my password in v2?", 3, 2), ("Which regions host the servers?", 1, 1)]
    assert result["days"][-1]["questions"] == 4


async def _rows(conn: asyncpg.Connection, days_ago: int) -> None:
    """One question, one no-result query and one day's counts, `days_ago` days back."""
    day = datetime.now(UTC).date() - timedelta(days=days_ago)
    topic = await conn.fetchval("insert into public.docs_insight_topic (model, embedding) values (null, null)"
                                " returning id")
    await conn.execute("insert into public.docs_insight_topic_total values ($1, 1)", topic)
    await conn.execute("insert into public.docs_insight_question (day, question_key, topic_id, question, count, answered)"
                       " values ($1, $2, $3, $4, 1, 1)", day, f"key {days_ago}", topic, f"asked {days_ago} days ago")
    await conn.execute("insert into public.docs_insight_no_result (day, door, query_key, query, count)"
                       " values ($1, 'search', $2, $2, 1)", day, f"missed {days_ago} days ago")
    await conn.execute("insert into public.docs_insight_day (day, questions, answered) values ($1, 1, 1)", day)


async def test_insights_read_and_keep_only_what_retention_keeps(pool, monkeypatch) -> None:
    from app.chat.retention import prune_expired
    from app.insights.record import InsightsRecorder
    from app.insights.report import read_insights

    monkeypatch.setenv("CHAT_RETENTION_DAYS", "10")
    monkeypatch.setenv("GAP_RETENTION_DAYS", "40")
    get_settings.cache_clear()
    settings = get_settings()
    async with pool.acquire() as conn:
        for days_ago in (5, 20, 60):
            await _rows(conn, days_ago)
        result = await read_insights(conn, settings, 90)
        # Questions no older than CHAT_RETENTION_DAYS, no-result queries than GAP_RETENTION_DAYS.
        assert [q["question"] for q in result["top_questions"]] == ["asked 5 days ago"]
        assert [m["query"] for m in result["search_no_results"]] == ["missed 5 days ago", "missed 20 days ago"]
        assert sum(d["questions"] for d in result["days"]) == 3  # plain counts: the 90 days asked for
        assert [q["question"] for q in (await read_insights(conn, settings, 3))["top_questions"]] == []

        # The hourly prune (docs_prune_expired, with both retentions): questions past 10 days and
        # their groups (two of each), the no-result query past 40 days, and the counts past the
        # longer of the two (40 days): the day of 60 days ago.
        deleted = await prune_expired(conn, settings)
        assert deleted["insights"] == 6
        left = await conn.fetch("select question from public.docs_insight_question")
        assert [r["question"] for r in left] == ["asked 5 days ago"]
        assert await conn.fetchval("select count(*) from public.docs_insight_topic") == 1
        assert await conn.fetchval("select count(*) from public.docs_insight_day") == 2

    # The server's own hourly prune finds nothing more: it uses the same two settings.
    assert await InsightsRecorder(pool, settings).prune() == {
        "insight_questions": 0, "insight_topics": 0, "insight_no_results": 0, "insight_counts": 0}
    async with pool.acquire() as conn:
        misses = await conn.fetch("select query from public.docs_insight_no_result order by day desc")
        assert [r["query"] for r in misses] == ["missed 5 days ago", "missed 20 days ago"]


async def test_top_questions_read_from_the_largest_totals_equal_a_full_count(pool) -> None:
    """docs_insight_top_questions stops reading once no group left can reach the list: on 400 groups
    with skewed counts over 90 days it gives what grouping every row gives, for every window, and
    record_docs_insight_turn and the prune keep each group's total equal to its rows."""
    import random

    rng = random.Random(48)
    today = datetime.now(UTC).date()
    async with pool.acquire() as conn:
        topics = [await conn.fetchval("insert into public.docs_insight_topic (model, embedding) values (null, null)"
                                      " returning id") for _ in range(400)]
        rows: dict[tuple, int] = {}
        for _ in range(6000):
            k = int(400 * rng.random() ** 3)
            key = (today - timedelta(days=rng.randrange(90)), k)
            rows[key] = rows.get(key, 0) + 1
        await conn.executemany(
            "insert into public.docs_insight_question (day, question_key, topic_id, question, count, answered)"
            " values ($1, $2, $3, $4, $5, $5)",
            [(day, f"key {k}", topics[k], f"question {k}", n) for (day, k), n in rows.items()])
        await conn.execute("insert into public.docs_insight_topic_total select topic_id, sum(count)"
                           " from public.docs_insight_question group by topic_id")
        # A turn adds to its group's total; one of today's questions, asked again.
        await conn.fetchval("select public.record_docs_insight_turn('question 0', 'answered', '{}', '{}', null, null)")
        full = """select q.question, sum(q.count) as count, max(q.day) as last_day from public.docs_insight_question q
                  where q.day > $1 group by q.topic_id, q.question order by 2 desc, 3 desc, q.topic_id limit $2"""
        for days in (1, 7, 30, 90):
            for wanted in (3, 20):
                expected = [(r["question"], r["count"]) for r in await conn.fetch(full, today - timedelta(days=days), wanted)]
                for max_groups in (5000, 30):  # 30: past it, the window's rows grouped instead
                    got = [(r["question"], r["count"]) for r in await conn.fetch(
                        "select * from public.docs_insight_top_questions($1, 90, $2, $3)", days, wanted, max_groups)]
                    assert got == expected, (days, wanted, max_groups)
        await conn.fetchval("select count(*) from public.docs_insight_prune(30, 90)")
        drift = await conn.fetchval(
            "select count(*) from public.docs_insight_topic_total t where t.total <>"
            " (select coalesce(sum(count), 0) from public.docs_insight_question q where q.topic_id = t.topic_id)")
        assert drift == 0
