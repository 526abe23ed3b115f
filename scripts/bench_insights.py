"""GET /admin/api/insights at scale: 1M stored messages, 100k search-box queries, 90 days of rollups.

Fills a database (DATABASE_URL, or the embedded server of $DOCSCHAT_HOME) in bulk with
generate_series, as the app would have written it over 90 days (sql/026_insights.sql):

  messages     --messages chat messages (half questions, half answers) in --messages / 10 sessions,
               spread over 90 days: the insights never read them, they make the database the size
  questions    the rollup rows of those --messages / 2 questions: per day, questions drawn from
               --distinct wordings with a skewed (cubic) law, each wording in its own group with a
               768-d embedding (HNSW-indexed, as the write path searches it)
  searches     --searches search-box requests per day and door, --miss-share of them submitted
               without a result, from --distinct-misses queries
  pages, days  cited pages (300) and the daily counts

Then `docschat serve` (one worker, CHAT_RETENTION_DAYS=90 so nothing is pruned under the clock)
answers GET /admin/api/insights?since=7d|30d|90d --requests times each, in --rounds rounds; every
figure (p50, p95, max per round, and the spread of the rounds' p95) is printed as a JSON line.
The write path's cost (record_docs_insight_turn on those tables, an embedding each) is measured
too. About two minutes on 2 cores.

    DOCSCHAT_HOME=/tmp/bench-insights python scripts/bench_insights.py
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import asyncpg
import httpx
from _corpus import ROOT  # noqa: F401  (puts the checkout on sys.path)
from bench_1m import cluster_cpu_seconds
from bench_search import descendants, process_cpu_seconds

from app.db.embedded import ensure_embedded_server
from app.db.migrate import ensure_schema

TOKEN = "bench-insights-token-0123456789abcdef"


def emit(record: dict[str, object]) -> None:
    print(json.dumps(record), flush=True)


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"p50": round(statistics.median(ordered), 2),
            "p95": round(ordered[max(0, int(round(0.95 * len(ordered))) - 1)], 2),
            "max": round(ordered[-1], 2)}


FILL = [
    ("empty", """
     delete from public.docs_insight_question; delete from public.docs_insight_topic;
     delete from public.docs_insight_no_result; delete from public.docs_insight_page;
     delete from public.docs_insight_door; delete from public.docs_insight_day;
     delete from public.docs_chat_session;
     """),
    ("sessions", """
     insert into public.docs_chat_session (id, created_at, updated_at, audiences)
     select gen_random_uuid(), now() - (i % 90) * interval '1 day', now() - (i % 90) * interval '1 day', '{public}'
     from generate_series(1, {sessions}) i
     """),
    ("messages", """
     insert into public.docs_chat_message (session_id, role, content, sources, created_at)
     select s.id, case when m % 2 = 0 then 'user' else 'assistant' end,
            case when m % 2 = 0 then 'How do I configure feature ' || (m * 7919 % {distinct}) || ' of the product?'
                 else 'You configure it in the settings page [1]. ' || repeat('More detail. ', 8) end,
            case when m % 2 = 0 then '[]'::jsonb
                 else jsonb_build_array(jsonb_build_object('title', 'Page ' || (m % 300), 'url',
                        'https://docs.example.com/page-' || (m % 300) || '#section')) end,
            s.created_at + m * interval '1 second'
     from (select id, created_at, row_number() over () as n from public.docs_chat_session) s
     cross join generate_series(1, 10) m
     """),
    ("drop_topic_index", "drop index if exists public.docs_insight_topic_embedding_idx"),
    ("topics", """
     insert into public.docs_insight_topic (model, embedding)
     select 'bench-model', (select array_agg(random()::real - 0.5) from generate_series(1, 768) d where d > 0 * t)::public.vector
     from generate_series(1, {distinct}) t
     """),
    # Built once after the load (as sql/026_insights.sql has it) rather than row by row: minutes less.
    ("topic_index", "create index docs_insight_topic_embedding_idx on public.docs_insight_topic"
                    " using hnsw (embedding public.vector_cosine_ops)"),
    ("questions", """
     insert into public.docs_insight_question (day, question_key, topic_id, question, count, answered, partly, refused)
     select day, 'key ' || k, (select min(id) from public.docs_insight_topic) + k,
            'How do I configure feature ' || k || ' of the product?', n,
            n - n / 5 - n / 10, n / 10, n / 5
     from (
       select (now() at time zone 'UTC')::date - d as day, floor({distinct} * power(random(), 3))::int as k, count(*) as n
       from generate_series(0, 89) d cross join generate_series(1, {questions_per_day}) q
       group by 1, 2
     ) drawn
     """),
    ("totals", """
     insert into public.docs_insight_topic_total (topic_id, total)
     select topic_id, sum(count) from public.docs_insight_question group by topic_id
     """),
    ("days", """
     insert into public.docs_insight_day (day, questions, answered, partly, refused, helpful, not_helpful)
     select day, sum(count), sum(answered), sum(partly), sum(refused), sum(count) / 40, sum(count) / 120
     from public.docs_insight_question group by day
     """),
    ("doors", """
     insert into public.docs_insight_door (day, door, requests)
     select (now() at time zone 'UTC')::date - d, door,
            case door when 'chat' then {questions_per_day} when 'search' then {searches_per_day}
                      when 'mcp' then 300 else 40 end
     from generate_series(0, 89) d cross join (values ('chat'), ('search'), ('mcp'), ('llms_txt')) v (door)
     """),
    ("misses", """
     insert into public.docs_insight_no_result (day, door, query_key, query, count)
     select day, 'search', 'nothing ' || k, 'nothing ' || k, n
     from (
       select (now() at time zone 'UTC')::date - d as day, floor({distinct_misses} * power(random(), 2))::int as k,
              count(*) as n
       from generate_series(0, 89) d cross join generate_series(1, {misses_per_day}) q
       group by 1, 2
     ) drawn
     """),
    ("pages", """
     insert into public.docs_insight_page (day, page, title, citations)
     select (now() at time zone 'UTC')::date - d, 'https://docs.example.com/page-' || p, 'Page ' || p,
            1 + floor(200 / (p + 1))::int
     from generate_series(0, 89) d cross join generate_series(0, 299) p
     """),
    ("analyze", "analyze public.docs_chat_message, public.docs_chat_session, public.docs_insight_question,"
                " public.docs_insight_topic, public.docs_insight_topic_total, public.docs_insight_no_result, public.docs_insight_page,"
                " public.docs_insight_door, public.docs_insight_day"),
]


async def fill(url: str, args) -> None:
    values = {
        "sessions": args.messages // 10, "distinct": args.distinct, "questions_per_day": args.messages // 2 // 90,
        "searches_per_day": args.searches // 90, "misses_per_day": int(args.searches * args.miss_share) // 90,
        "distinct_misses": args.distinct_misses,
    }
    conn = await asyncpg.connect(url)
    try:
        for name, sql in FILL:
            started = time.perf_counter()
            for key, value in values.items():
                sql = sql.replace("{" + key + "}", str(value))  # the script's own integers, not input
            await conn.execute(sql)
            emit({"stage": "fill", "step": name, "seconds": round(time.perf_counter() - started, 1)})
        counts = await conn.fetchrow(
            "select (select count(*) from public.docs_chat_message) as messages,"
            " (select sum(questions) from public.docs_insight_day) as questions,"
            " (select count(*) from public.docs_insight_question) as question_rows,"
            " (select count(*) from public.docs_insight_topic) as topics,"
            " (select sum(requests) from public.docs_insight_door where door = 'search') as searches,"
            " (select sum(count) from public.docs_insight_no_result) as searches_without_result,"
            " (select count(*) from public.docs_insight_no_result) as no_result_rows,"
            " (select count(distinct day) from public.docs_insight_day) as days")
        emit({"stage": "filled", **{k: int(v) for k, v in counts.items()}})
    finally:
        await conn.close()


async def measure_sql(url: str, args) -> None:
    """The five reading statements alone, on one connection (the route's work without HTTP)."""
    conn = await asyncpg.connect(url)
    try:
        for days in (7, 30, 90):
            samples: list[float] = []
            for _ in range(args.requests):
                started = time.perf_counter()
                await conn.fetch("select * from public.docs_insight_days($1)", days)
                await conn.fetch("select * from public.docs_insight_doors($1)", days)
                await conn.fetch("select * from public.docs_insight_top_questions($1, 90, 20)", days)
                await conn.fetch("select * from public.docs_insight_top_pages($1, 20)", days)
                await conn.fetch("select * from public.docs_insight_no_results($1, 90, 20)", days)
                samples.append((time.perf_counter() - started) * 1000)
            emit({"stage": "sql", "since": f"{days}d", "requests": len(samples), **percentiles(samples)})
        # The write path: one chat question into tables this size (a new wording, nearest group by HNSW).
        from pgvector.asyncpg import register_vector

        await register_vector(conn)
        rng = random.Random(5)
        samples = []
        for i in range(args.writes):
            vector = [rng.random() - 0.5 for _ in range(768)]
            started = time.perf_counter()
            await conn.fetchval("select public.record_docs_insight_turn($1, 'answered', $2, $3, $4, 'bench-model', 0.9)",
                                f"bench write {i} {rng.random()}", ["https://docs.example.com/page-1"], ["Page 1"], vector)
            samples.append((time.perf_counter() - started) * 1000)
        emit({"stage": "write", "statement": "record_docs_insight_turn", "calls": len(samples), **percentiles(samples)})
    finally:
        await conn.close()


def postmaster_pid() -> int | None:
    """The embedded server's postmaster (its CPU is counted per request); None with DATABASE_URL."""
    pid_file = Path(os.environ.get("DOCSCHAT_HOME", "")) / "pg" / "postmaster.pid"
    return None if os.environ.get("DATABASE_URL") or not pid_file.exists() else int(pid_file.read_text().split()[0])


def measure_http(url: str, args) -> None:
    port = args.port
    env = {**os.environ, "DATABASE_URL": url, "ADMIN_TOKEN": TOKEN, "EMBEDDING_PROVIDER": "none",
           "CHAT_RETENTION_DAYS": "90", "GAP_RETENTION_DAYS": "90", "LOG_LEVEL": "warning"}
    log = Path(os.environ.get("DOCSCHAT_HOME", "/tmp")) / "bench-insights-serve.log"
    server = subprocess.Popen([sys.executable, "-m", "app", "serve", "--port", str(port)], env=env,
                              stdout=log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit(f"docschat serve did not start: {log.read_text()[-2000:]}")
            time.sleep(0.2)
        headers = {"authorization": f"Bearer {TOKEN}"}
        with httpx.Client(base_url=base, timeout=30, headers=headers) as client:
            for since in ("7d", "30d", "90d"):
                for _ in range(5):  # warm-up: the pool's connections, the plans
                    client.get("/admin/api/insights", params={"since": since}).raise_for_status()
                rounds = []
                postmaster = postmaster_pid()
                for round_number in range(args.rounds):
                    samples = []
                    # CPU spent per request by the server and the database: what the answer costs,
                    # whatever else the machine's cores run meanwhile (the wall time includes the wait).
                    cpu_before = process_cpu_seconds(descendants(server.pid)) + (
                        cluster_cpu_seconds(postmaster) if postmaster else 0.0)
                    for _ in range(args.requests):
                        started = time.perf_counter()
                        response = client.get("/admin/api/insights", params={"since": since})
                        samples.append((time.perf_counter() - started) * 1000)
                        response.raise_for_status()
                    cpu = process_cpu_seconds(descendants(server.pid)) + (
                        cluster_cpu_seconds(postmaster) if postmaster else 0.0) - cpu_before
                    figures = percentiles(samples)
                    rounds.append(figures["p95"])
                    emit({"stage": "http", "since": since, "round": round_number + 1, "requests": len(samples),
                          **figures, "cpu_ms_per_request": round(1000 * cpu / len(samples), 1),
                          "load_average": os.getloadavg()[0]})
                body = response.json()
                emit({"stage": "http_summary", "since": since, "p95_of_rounds": rounds,
                      "p95_spread_ms": round(max(rounds) - min(rounds), 2), "load_average": os.getloadavg(),
                      "answer": {"days": len(body["days"]), "questions": body["totals"]["questions"],
                                 "top_question_count": body["top_questions"][0]["count"] if body["top_questions"] else 0,
                                 "bytes": len(response.content)}})
    finally:
        if server.poll() is None:
            os.killpg(server.pid, 15)
            server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=1_000_000)
    parser.add_argument("--searches", type=int, default=100_000)
    parser.add_argument("--miss-share", type=float, default=0.1)
    parser.add_argument("--distinct", type=int, default=20_000, help="distinct question wordings (one group each)")
    parser.add_argument("--distinct-misses", type=int, default=3_000)
    parser.add_argument("--requests", type=int, default=100, help="requests per window per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--writes", type=int, default=200)
    parser.add_argument("--port", type=int, default=18851)
    parser.add_argument("--skip-fill", action="store_true", help="measure what an earlier run filled")
    parser.add_argument("--skip-sql", action="store_true", help="only the HTTP measurement")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL") or ensure_embedded_server(Path(os.environ["DOCSCHAT_HOME"]))
    asyncio.run(ensure_schema(url))
    if not args.skip_fill:
        asyncio.run(fill(url, args))
    if not args.skip_sql:
        asyncio.run(measure_sql(url, args))
    measure_http(url, args)


if __name__ == "__main__":
    main()
