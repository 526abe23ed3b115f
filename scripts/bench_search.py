"""Search latency on synthetic corpora of 1k, 10k and 100k chunks (embedded Postgres, warm).

Texts are sentences sampled from ../shared/corpora/mintlify-docs; vectors are 768-d with cluster
structure; ~70% of rows are public. Questions are 4–8 word phrases from the same text, searched
public-only. Prints p50/p95 (ms, client side) of each leg and of the fused retrieval, the
question embedding excluded (vectors are precomputed), the fused call's own stage timings, how
often the rescue ran, and the CPU milliseconds per call of this process (client) and of the
database's backends (postgres), read from /proc between the timed calls. The legs alone are not
all the fused call does: its vector leg also measures its best hits' term coverage, and it adds
the fusion, the judge and, for low-confidence answers, the rescue. --breakdown adds a third step
per question: the vector leg with its coverage, and both legs side by side on two connections as
the fused call runs them (the fused call without the fusion); with the ratios of the fused p95
to that and of that to the slower leg (design/fused-call.md). Each step also
prints the run-queue time per call (client and backends runnable but waiting for a CPU) on average
and in its slowest 5% (design/fused-call.md).

--search-box: the search box as a reader's browser uses it. `docschat serve --workers N` runs in a
process of its own and this process is only the client: --clients concurrent clients send what a
typist's debounced box sends, GET /docs/search?q=<prefix>&mode=keyword for each word typed in part
and in full ("con", "configure", "configure nav", ...), each distinct prefix once, back to back.
--client lean (raw asyncio HTTP/1.1 keep-alive, prepared requests, no JSON parsing: ~0.15 ms of
CPU a request) or httpx (the original client, ~1.5 ms a request on the same two cores), or both.
"8 clients" are 8 connections each sending its next request as soon as the previous reply is in
(back to back: no typing pause, a closed loop that keeps both cores busy). --sections (default 1,
what the widget asks). --typing-ms K adds a row where each client types its own questions at K ms
a keystroke and sends each prefix the widget's debounce (read from widget.js) after its last key.
p50/p95 are client side, over --rounds rounds (each figure: median of the rounds, with min and
max); also printed: one client alone, the SQL alone serially, the floor (one-letter queries, no
database) and the CPU milliseconds per request of this client, the server's processes and
Postgres' (from /proc: where a request's time goes whatever else the machine runs). These rows run
without the result cache (SEARCH_CACHE_SIZE=0: a round repeats the previous one's queries); --mix N
adds rows with it on and off over the prefixes of N questions drawn by popularity (Zipf, s = 1),
each round on a fresh server, with the share of requests it answered (hit rate). The corpus is
the synthetic one at each of --sizes, or with --mintlify ../shared/corpora/mintlify-docs synced
keyword-only (every page public).

    python scripts/bench_search.py --search-box --mintlify --clients 8 --rounds 2
    python scripts/bench_search.py --search-box --sizes 100000 --clients 8 --rounds 2

--mode hybrid (with --search-box --mintlify): the sync and the server use the offline model
(EMBEDDING_PROVIDER=local) and each question is sent once a round, whole, with mode=hybrid, as the
box does on submit; at each of --clients-list a fresh server with no stored query embedding, so
round 1 embeds every question and the later rounds find it cached.

    python scripts/bench_search.py --search-box --mintlify --mode hybrid --clients-list 1,8 --rounds 3 --workers 1
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Sequence
from typing import Any

import asyncpg
import httpx
import numpy as np
from _corpus import MINTLIFY_QUESTIONS, ROOT, corpus_repo, start_server, stop_server, throwaway_database

from app.config import Settings
from app.corpus.compose import DocsSource, compose_corpus
from app.db.migrate import ensure_schema
from app.db.pool import create_pool
from app.judge.question_terms import everyday_words
from app.search.legs import match_docs_sections, search_docs_sections
from app.search.query_embedding import QueryEmbedder
from app.search.retrieve import EVIDENCE_HITS, Retriever

MODEL = "bench-model"


class PrecomputedProvider:
    """Question vectors prepared in advance: the benchmark measures search, not embedding."""

    model = MODEL
    batch_size = 1

    def __init__(self, vectors: dict[str, list[float]]) -> None:
        self.vectors = vectors

    async def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self.vectors[t] for t in texts]

    async def embed_query(self, text: str) -> list[float]:
        return self.vectors[text]


def sentences_and_titles() -> tuple[list[str], list[str], list[str]]:
    repo = corpus_repo("mintlify-docs")
    try:
        composed = compose_corpus(DocsSource(repo, "main", "docs"), Settings())
    finally:
        shutil.rmtree(repo, ignore_errors=True)
    sentences = []
    for chunk in composed.chunks:
        for sentence in re.split(r"(?<=[.!?])\s+|\n+", chunk.text):
            if 30 <= len(sentence) <= 300 and not sentence.startswith(("```", "#", "|")):
                sentences.append(sentence.strip())
    titles = sorted({c.title for c in composed.chunks})
    headings = sorted({c.heading for c in composed.chunks if c.heading})
    return sentences, titles, headings


async def load(conn, n: int, rng: random.Random, centers: np.ndarray, corpus, with_vectors: bool = True) -> None:
    """n synthetic chunks; without vectors (the search box's keyword mode) no embedding nor HNSW index."""
    sentences, titles, headings = corpus
    await conn.execute("truncate docs_section, docs_lexeme_stats, docs_search_stats")
    await conn.execute("drop index if exists docs_section_embedding_idx")
    await conn.execute("drop index if exists docs_section_search_vector_idx")
    await conn.execute("drop index if exists docs_section_fts_search_vector_idx")  # the leg's narrow table
    await conn.execute("drop index if exists docs_section_fts_head_idx")
    np_rng = np.random.default_rng(rng.randrange(1 << 30))
    records = []
    for i in range(n):
        center = centers[i % len(centers)]
        vector = center + np_rng.normal(0, 0.35, size=center.shape)
        vector /= np.linalg.norm(vector)
        page = f"page-{i // 8}.mdx"
        records.append((
            f"docs:{page}#s{i % 8}", "docs", page, rng.choice(titles), rng.choice(headings), "bench",
            f"/docs/page-{i // 8}#s{i % 8}", " ".join(rng.sample(sentences, rng.randint(3, 8))),
            ["public"] if rng.random() < 0.7 else ["internal"], "hash",
            vector.astype(np.float32) if with_vectors else None, MODEL if with_vectors else None,
        ))
    await conn.copy_records_to_table(
        "docs_section", records=records,
        columns=["id", "source", "page", "title", "heading", "breadcrumb", "href", "content", "audiences", "content_hash",
                 "embedding", "embedding_model"],
    )
    await conn.execute("set maintenance_work_mem = '2GB'")
    await conn.execute("create index docs_section_search_vector_idx on public.docs_section using gin (search_vector)")
    await conn.execute(
        "create index docs_section_fts_search_vector_idx on public.docs_section_fts using gin (search_vector)")
    await conn.execute("create index docs_section_fts_head_idx on public.docs_section_fts"
                       " using gin (pg_catalog.ts_filter(search_vector, '{a,b}'))")  # sql/022_section_fts_head.sql
    if with_vectors:
        await conn.execute(
            "create index docs_section_embedding_idx on public.docs_section"
            " using hnsw ((embedding::public.halfvec(768)) public.halfvec_cosine_ops)"  # sql/023_halfvec_index.sql
        )
    await conn.fetchval("select public.refresh_docs_search_stats()")
    await conn.execute("vacuum analyze docs_section, docs_section_fts")


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50": round(statistics.median(ordered), 2),
        "p95": round(ordered[max(0, int(round(0.95 * len(ordered))) - 1)], 2),
    }


async def backend_pids(pool) -> list[int]:
    """The database's client backends (the pool's connections, opened by the warm-up)."""
    async with pool.acquire() as conn:
        rows = await conn.fetch("select pid from pg_catalog.pg_stat_activity"
                                " where datname = pg_catalog.current_database() and backend_type = 'client backend'")
    return [r["pid"] for r in rows]


async def measure(pool, questions: list[str], vectors: dict[str, list[float]], rounds: int,
                  breakdown: bool = False) -> dict[str, object]:
    settings = Settings(leg_timeout_seconds=30, query_embedding_timeout_seconds=30)
    retriever = Retriever(pool, settings, QueryEmbedder(PrecomputedProvider(vectors)))
    timings: dict[str, list[float]] = {"keyword": [], "vector": [], "fused": []}
    stages: dict[str, list[float]] = {}  # inside the fused retrieval, as it times itself
    # CPU per call, this process (client) and the backends (Postgres): steadier than wall time on
    # a busy machine; and the time they spent runnable but waiting for a CPU, which is what two
    # backends and a client on two cores cost a call beyond its work (design/fused-call.md). Read
    # between the timed calls, never inside them.
    cpu: dict[str, dict[str, float]] = {}
    waits: dict[str, list[tuple[float, float]]] = {}  # per call, ms: (wall, client + postgres waiting)
    for question in questions:  # warm-up: plans, caches, the query-vector LRU
        await retriever.retrieve(question, audiences=["public"])
    backends = await backend_pids(pool)

    def cpu_now() -> tuple[float, float, float]:
        postgres_cpu, postgres_waiting = schedstat_seconds(backends)
        return time.process_time(), postgres_cpu, postgres_waiting + schedstat_seconds(["thread-self"])[1]

    def count_cpu(name: str, before: tuple[float, float, float], started: float) -> tuple[float, float, float]:
        wall = time.perf_counter() - started
        now = cpu_now()
        spent = cpu.setdefault(name, {"client": 0.0, "postgres": 0.0, "calls": 0})
        spent["client"] += now[0] - before[0]
        spent["postgres"] += now[1] - before[1]
        spent["calls"] += 1
        waits.setdefault(name, []).append((wall * 1000, (now[2] - before[2]) * 1000))
        return now

    steps_of = ["legs", "fused", "side_by_side"] if breakdown else ["legs", "fused"]
    for round_number in range(rounds):
        for index, question in enumerate(questions):
            # Whatever runs second finds the pages the first one read in shared buffers:
            # alternate the order so neither the legs nor the fused retrieval get that edge.
            turn = (index + round_number) % len(steps_of)
            for step in steps_of[turn:] + steps_of[:turn]:
                if step == "legs":
                    async with pool.acquire() as conn:
                        before = cpu_now()
                        start = time.perf_counter()
                        await search_docs_sections(conn, question, settings.leg_match_count, ["public"])
                        timings["keyword"].append((time.perf_counter() - start) * 1000)
                        before = count_cpu("keyword", before, start)
                        start = time.perf_counter()
                        await match_docs_sections(conn, vectors[question], MODEL, settings.leg_match_count, ["public"])
                        timings["vector"].append((time.perf_counter() - start) * 1000)
                        before = count_cpu("vector", before, start)
                        if breakdown:  # the vector leg as the fused call runs it: with its best hits' coverage
                            start = time.perf_counter()
                            await match_docs_sections(conn, vectors[question], MODEL, settings.leg_match_count,
                                                      ["public"], coverage_of=question, coverage_hits=EVIDENCE_HITS)
                            timings.setdefault("vector_with_coverage", []).append((time.perf_counter() - start) * 1000)
                            count_cpu("vector_with_coverage", before, start)
                elif step == "side_by_side":
                    # Both legs as the fused call runs them, on two connections, started together:
                    # the fused call up to the fusion, without the fusion, the judge and the rest.
                    async with pool.acquire() as first, pool.acquire() as second:
                        before = cpu_now()
                        start = time.perf_counter()
                        await asyncio.gather(
                            search_docs_sections(first, question, settings.leg_match_count, ["public"]),
                            match_docs_sections(second, vectors[question], MODEL, settings.leg_match_count, ["public"],
                                                coverage_of=question, coverage_hits=EVIDENCE_HITS))
                        timings.setdefault("legs_side_by_side", []).append((time.perf_counter() - start) * 1000)
                        count_cpu("legs_side_by_side", before, start)
                else:
                    before = cpu_now()
                    start = time.perf_counter()
                    result = await retriever.retrieve(question, audiences=["public"])
                    timings["fused"].append((time.perf_counter() - start) * 1000)
                    count_cpu("fused", before, start)
                    assert result.degraded is None, result.errors
                    for stage, ms in result.timings_ms.items():
                        stages.setdefault(stage, []).append(ms)
    figures: dict[str, Any] = {leg: percentiles(samples) for leg, samples in timings.items()}
    slower = max(figures["keyword"]["p95"], figures["vector"]["p95"])
    figures["fused_p95_over_slower_leg"] = round(figures["fused"]["p95"] / slower, 2) if slower else None
    if breakdown:
        # What the fused call adds to its two legs run side by side (fusion, judge, Python), as
        # against what running them side by side adds to the slower leg alone (sharing the cores).
        side = figures["legs_side_by_side"]["p95"]
        figures["fused_p95_over_legs_side_by_side"] = round(figures["fused"]["p95"] / side, 2) if side else None
        figures["legs_side_by_side_p95_over_slower_leg"] = round(side / slower, 2) if slower else None
    # Where the fused time goes; "rescue" runs only for answers of low confidence ("runs": how often).
    figures["fused_stages"] = {
        stage: {**percentiles(samples), "runs": len(samples)} for stage, samples in sorted(stages.items())
    }
    figures["rescue_runs"] = len(stages.get("rescue", []))
    figures["cpu_ms_per_call"] = {
        name: {"client": round(c["client"] * 1000 / c["calls"], 2), "postgres": round(c["postgres"] * 1000 / c["calls"], 2)}
        for name, c in cpu.items()
    }
    # Run-queue waiting per call, client and backends together: on average, and in the calls as
    # slow as the step's p95 or slower (what sets the p95).
    figures["run_queue_ms_per_call"] = {
        name: {"mean": round(statistics.mean(w for _, w in calls), 2),
               "slowest_5pct": round(statistics.mean(w for wall, w in calls if wall >= tail), 2)}
        for name, calls in waits.items()
        for tail in [sorted(wall for wall, _ in calls)[max(0, int(round(0.95 * len(calls))) - 1)]]
    }
    return figures


async def run(url: str, sizes: list[int], n_questions: int, rounds: int, breakdown: bool = False) -> None:
    await ensure_schema(url)
    rng = random.Random(1234)
    corpus = sentences_and_titles()
    centers = np.random.default_rng(7).normal(0, 1, size=(64, 768)).astype(np.float32)
    pool = await create_pool(url, min_size=2, max_size=4)
    try:
        for n in sizes:
            async with pool.acquire() as conn:
                started = time.perf_counter()
                await load(conn, n, rng, centers, corpus)
                load_seconds = time.perf_counter() - started
            questions, vectors = [], {}
            np_rng = np.random.default_rng(n)
            for _ in range(n_questions):
                words = re.findall(r"[A-Za-z]{3,}", rng.choice(corpus[0]))
                start = rng.randrange(max(1, len(words) - 4))
                question = " ".join(words[start : start + rng.randint(4, 8)]) or "configure navigation"
                vector = centers[rng.randrange(len(centers))] + np_rng.normal(0, 0.35, size=768)
                vectors[question] = (vector / np.linalg.norm(vector)).tolist()
                questions.append(question)
            figures = await measure(pool, questions, vectors, rounds, breakdown)
            print(json.dumps({"chunks": n, "load_seconds": round(load_seconds, 1), **figures}), flush=True)
    finally:
        await pool.close()


# --- the search box, over HTTP from this process to `docschat serve` in its own ----------------

def by_question(queries: list[str]) -> list[list[str]]:
    """`queries` (typed() of each question, one after the other) cut where a question begins: where
    a prefix does not extend the previous one's words."""
    questions: list[list[str]] = []
    for query in queries:
        words = query.split(" ")
        last = questions[-1][-1].split(" ") if questions else []
        if last and words[: len(last) - 1] == last[:-1] and len(words) in (len(last), len(last) + 1):
            questions[-1].append(query)
        else:
            questions.append([query])
    return questions


def typed(question: str) -> list[str]:
    """What a debounced search box sends while `question` is typed: each word's first three
    letters, then the word whole, after the words before it."""
    words = re.findall(r"[A-Za-z0-9]+", question)
    sent: list[str] = []
    for i, word in enumerate(words):
        before = " ".join(words[:i])
        for part in dict.fromkeys([word[:3], word]):
            text = f"{before} {part}".strip()
            if len(text) >= 2:
                sent.append(text)
    return sent


async def box_round(base: str, clients: int, queries: list[str], mode: str = "keyword", sections: int = 3
                    ) -> dict[str, float]:
    samples: list[float] = []
    empty = degraded = 0

    async def client_loop(client: httpx.AsyncClient, mine: list[str]) -> None:
        nonlocal empty, degraded
        for query in mine:
            started = time.perf_counter()
            response = await client.get("/docs/search", params={"q": query, "limit": 8, "mode": mode,
                                                                    "sections": sections})
            samples.append((time.perf_counter() - started) * 1000)
            response.raise_for_status()
            body = response.json()
            empty += not body["results"]  # (the floor's one-letter queries: all empty)
            degraded += body.get("degraded") is not None  # hybrid that fell back to keyword

    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
        started = time.perf_counter()
        await asyncio.gather(*(client_loop(client, queries[c::clients]) for c in range(clients)))
        elapsed = time.perf_counter() - started
    return {**percentiles(samples), "rps": round(len(samples) / elapsed, 1), "requests": len(samples),
            "empty": empty, "degraded": degraded}


async def raw_round(base: str, clients: int, queries: list[str], sections: int = 1,
                    typing: tuple[float, float] | None = None) -> dict[str, float]:
    """As box_round, with a lean client: each of `clients` keeps one HTTP/1.1 keep-alive connection
    and writes prepared requests on a raw asyncio stream (no httpx, no JSON parsing), so that the
    load generator takes little of the CPU it shares with the server and Postgres. `sections`: per
    page, as the widget asks (1). `typing` = (ms per keystroke, debounce ms): each client types its
    own questions (`queries` in order, split by question) and sends a prefix the debounce after its
    last keystroke, or when the previous reply is in if that comes later; None: back to back."""
    host, port = base.removeprefix("http://").rsplit(":", 1)
    samples: list[float] = []
    empty = 0

    def request(query: str) -> bytes:
        path = "/docs/search?" + urllib.parse.urlencode({"q": query, "limit": 8, "sections": sections})
        return f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUser-Agent: bench\r\n\r\n".encode()

    def keystrokes(before: str, query: str) -> int:  # characters typed from one prefix to the next
        common = len(os.path.commonprefix([before, query]))
        return len(query) - common + (1 if common < len(before) else 0)  # (+1: clearing the box)

    async def client_loop(mine: list[bytes], texts: list[str]) -> None:
        nonlocal empty
        reader, writer = await asyncio.open_connection(host, int(port))
        due = time.perf_counter()
        try:
            for raw, text, before in zip(mine, texts, ["", *texts], strict=False):
                if typing is not None:
                    due += (keystrokes(before, text) * typing[0] + typing[1]) / 1000
                    if due > time.perf_counter():
                        await asyncio.sleep(due - time.perf_counter())
                    due = max(due, time.perf_counter())
                started = time.perf_counter()
                writer.write(raw)
                head = await reader.readuntil(b"\r\n\r\n")
                length = int(re.search(rb"(?i)\r\ncontent-length: *(\d+)", head).group(1))  # type: ignore[union-attr]
                body = await reader.readexactly(length)
                samples.append((time.perf_counter() - started) * 1000)
                if not head.startswith(b"HTTP/1.1 200"):
                    raise SystemExit(f"GET /docs/search: {head.splitlines()[0]!r}")
                empty += b'"results":[]' in body
        finally:
            writer.close()

    if typing is None:
        shares = [queries[c::clients] for c in range(clients)]
    else:  # whole questions per client: a question's prefixes follow one another
        questions = by_question(queries)
        shares = [[q for question in questions[c::clients] for q in question] for c in range(clients)]
    started = time.perf_counter()
    await asyncio.gather(*(client_loop([request(q) for q in share], share) for share in shares))
    elapsed = time.perf_counter() - started
    return {**percentiles(samples), "rps": round(len(samples) / elapsed, 1), "requests": len(samples),
            "empty": empty}


def process_cpu_seconds(pids: list[int]) -> float:
    """User + system CPU of these processes so far (Linux /proc), 0 for those gone."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def process_runtime_seconds(pids: list[int]) -> float:
    """CPU time of these processes so far, to the nanosecond (Linux /proc/<pid>/schedstat; the
    clock ticks of /proc/<pid>/stat are 10 ms, as long as a search); 0 for those gone."""
    return schedstat_seconds(pids)[0]


def schedstat_seconds(pids: Sequence[int | str]) -> tuple[float, float]:
    """Of these processes so far (Linux /proc/<pid>/schedstat, to the nanosecond; 0 for those
    gone): the CPU time, and the time spent runnable but waiting for a CPU (on a run queue)."""
    running = waiting = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/schedstat") as stat:
                fields = stat.read().split()
            running, waiting = running + int(fields[0]), waiting + int(fields[1])
        except (OSError, ValueError, IndexError):
            continue
    return running / 1e9, waiting / 1e9


def descendants(root: int) -> list[int]:
    """root and every process below it (the server's workers, the postmaster's backends)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            children.setdefault(parent, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def measured_round(base: str, clients: int, queries: list[str], lean: bool, server: int, postmaster: int | None,
                   sections: int = 1, typing: tuple[float, float] | None = None) -> dict[str, float]:
    """One round, with the CPU milliseconds per request that the client (this process), the server's
    processes and Postgres' spent: where a request's time goes, whatever else the machine runs."""
    roots = {"server": server, "postgres": postmaster}
    before = {k: {pid: process_cpu_seconds([pid]) for pid in descendants(root)} if root else {}
              for k, root in roots.items()}
    client_before = time.process_time()
    figures = asyncio.run(raw_round(base, clients, queries, sections, typing) if lean
                          else box_round(base, clients, queries, sections=sections))
    cpu = {}
    for k, root in roots.items():  # a process started during the round (a new connection) counts whole
        spent = sum(process_cpu_seconds([pid]) - before[k].get(pid, 0) for pid in (descendants(root) if root else []))
        cpu[f"cpu_ms_per_request_{k}"] = spent * 1000 / figures["requests"]
    cpu["cpu_ms_per_request_client"] = (time.process_time() - client_before) * 1000 / figures["requests"]
    return {**figures, **{k: round(v, 2) for k, v in cpu.items()}}


def spread(rounds: list[dict[str, float]], key: str) -> dict[str, float]:
    values = [r[key] for r in rounds]
    return {"median": round(statistics.median(values), 2), "min": round(min(values), 2), "max": round(max(values), 2)}


async def box_sql_serial(url: str, queries: list[str], sections: int = 1) -> dict[str, float]:
    """The statement alone, one query at a time on one connection: the database's share."""
    conn = await asyncpg.connect(url)
    try:
        # As the server calls it: the query's everyday words are never taken for typos.
        sql = "select * from public.docs_search_box($1, $2, 8, $3, true, everyday_words => $4)"
        for query in queries[:20]:
            await conn.fetch(sql, query, ["public"], int(sections), everyday_words(query))
        samples = []
        for query in queries:
            started = time.perf_counter()
            await conn.fetch(sql, query, ["public"], int(sections), everyday_words(query))
            samples.append((time.perf_counter() - started) * 1000)
    finally:
        await conn.close()
    return percentiles(samples)


def postmaster_pid(url: str) -> int | None:
    """The embedded Postgres' postmaster (its folder is the socket directory of the URL)."""
    folder = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query).get("host", [""])[0]
    try:
        with open(os.path.join(folder, "postmaster.pid")) as pid_file:
            return int(pid_file.readline())
    except (OSError, ValueError):
        return None


def bench_box(env: dict[str, str], label: dict[str, object], questions: list[str], args: argparse.Namespace) -> None:
    # Each typed prefix once: distinct queries, so no cache of any kind answers a repeat.
    queries = list(dict.fromkeys(q for question in questions for q in typed(question)))
    serial = [asyncio.run(box_sql_serial(env["DATABASE_URL"], queries, args.sections)) for _ in range(args.rounds)]
    postmaster = postmaster_pid(env["DATABASE_URL"])
    clients = ["lean", "httpx"] if args.client == "both" else [args.client]
    for workers in [int(w) for w in args.workers.split(",")]:
        process, base = start_server(env, workers)
        try:
            asyncio.run(box_round(base, args.clients, queries[: 8 * args.clients]))  # warm-up: pools, plans
            for client in clients:
                lean = client == "lean"
                rounds = [measured_round(base, args.clients, queries, lean, process.pid, postmaster, args.sections)
                          for _ in range(args.rounds)]
                # The floor on this machine: the same requests answered without the database (one
                # letter), i.e. HTTP, the framework and the client alone.
                floor = [measured_round(base, args.clients, ["e"] * len(queries), lean, process.pid, postmaster,
                                        args.sections) for _ in range(args.rounds)]
                # One client at a time: the latency with no queue, less sensitive to the machine's load.
                single = [measured_round(base, 1, queries, lean, process.pid, postmaster, args.sections)
                          for _ in range(args.rounds)]
                print(json.dumps({
                    **label, "workers": workers, "client": client, "clients": args.clients, "rounds": args.rounds,
                    "requests_per_round": rounds[0]["requests"], "empty_per_round": rounds[0]["empty"],
                    "p50_ms": spread(rounds, "p50"), "p95_ms": spread(rounds, "p95"),
                    "requests_per_second": spread(rounds, "rps"),
                    "p95_each_round": [r["p95"] for r in rounds],
                    "cpu_ms_per_request": {k.removeprefix("cpu_ms_per_request_"): spread(rounds, k)["median"]
                                           for k in rounds[0] if k.startswith("cpu_ms")},
                    "single_client_p50_ms": spread(single, "p50"), "single_client_p95_ms": spread(single, "p95"),
                    "sql_alone_serial_p50_ms": spread(serial, "p50"), "sql_alone_serial_p95_ms": spread(serial, "p95"),
                    "floor_no_db_p50_ms": spread(floor, "p50"), "floor_no_db_p95_ms": spread(floor, "p95"),
                    "sections": args.sections, "pace": "back to back", "load_average": os.getloadavg()}), flush=True)
                if lean and args.typing_ms:  # a separate row, never instead of the one above
                    typing = (args.typing_ms, widget_debounce_ms())
                    paced = [measured_round(base, args.clients, queries, lean, process.pid, postmaster,
                                            args.sections, typing) for _ in range(args.rounds)]
                    print(json.dumps({
                        **label, "workers": workers, "client": client, "clients": args.clients, "rounds": args.rounds,
                        "pace": {"ms_per_keystroke": typing[0], "debounce_ms": typing[1]},
                        "requests_per_round": paced[0]["requests"], "sections": args.sections,
                        "p50_ms": spread(paced, "p50"), "p95_ms": spread(paced, "p95"),
                        "requests_per_second": spread(paced, "rps"),
                        "cpu_ms_per_request": {k.removeprefix("cpu_ms_per_request_"): spread(paced, k)["median"]
                                               for k in paced[0] if k.startswith("cpu_ms")},
                        "load_average": os.getloadavg()}), flush=True)
        finally:
            stop_server(process)
        if args.mix:
            bench_mix(env, label, questions, args, workers)


def popular_mix(questions: list[str], count: int, seed: int = 5) -> list[str]:
    """What the box is sent while `count` questions are typed, drawn by popularity: Zipf (s = 1)
    over `questions` in a fixed random order, so that popular questions, and every question's
    first words, recur as they would across a site's readers."""
    rng = random.Random(seed)
    order = list(questions)
    rng.shuffle(order)
    drawn = rng.choices(order, [1 / (rank + 1) for rank in range(len(order))], k=count)
    return [query for question in drawn for query in typed(question)]


async def searches_run(url: str) -> int:
    """docs_search_box calls so far (track_functions = all on the database; a backend's counts are
    in once it has exited, i.e. after stop_server)."""
    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval(
            "select coalesce(sum(calls), 0) from pg_stat_user_functions where funcname = 'docs_search_box'"))
    finally:
        await conn.close()


async def track_functions(url: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("do $$ begin execute format('alter database %I set track_functions = ''all''', "
                           "current_database()); end $$")
    finally:
        await conn.close()


def bench_mix(env: dict[str, str], label: dict[str, object], questions: list[str], args: argparse.Namespace,
              workers: int) -> None:
    """The result cache on a mix with repeats (popular_mix): per round a fresh server (an empty
    cache), with SEARCH_CACHE_SIZE 1024 and, for comparison, 0; the hit rate is 1 - searches the
    database ran / requests."""
    queries = popular_mix(questions, args.mix)
    asyncio.run(track_functions(env["DATABASE_URL"]))
    postmaster = postmaster_pid(env["DATABASE_URL"])
    rows: dict[str, list[dict[str, float]]] = {"1024": [], "0": []}
    for _ in range(args.rounds):
        for size, rounds in rows.items():
            before = asyncio.run(searches_run(env["DATABASE_URL"]))
            process, base = start_server({**env, "SEARCH_CACHE_SIZE": size}, workers)
            try:  # warm (pools, plans) on distinct queries the round does not send: each a search
                warm = list(dict.fromkeys(f"{q}q" for q in queries))[: 8 * args.clients]
                asyncio.run(raw_round(base, args.clients, warm))
                figures = measured_round(base, args.clients, queries, True, process.pid, postmaster, args.sections)
            finally:
                stop_server(process)
            ran = asyncio.run(searches_run(env["DATABASE_URL"])) - before - len(warm)
            rounds.append({**figures, "hit_rate": round(1 - ran / figures["requests"], 3)})
    for size, rounds in rows.items():
        print(json.dumps({
            **label, "workers": workers, "client": "lean", "clients": args.clients, "rounds": args.rounds,
            "pace": "back to back", "mix": {"questions_drawn": args.mix, "requests": len(queries),
                                            "distinct": len(set(queries))},
            "search_cache_size": int(size), "hit_rate_each_round": [r["hit_rate"] for r in rounds],
            "p50_ms": spread(rounds, "p50"), "p95_ms": spread(rounds, "p95"),
            "requests_per_second": spread(rounds, "rps"), "p95_each_round": [r["p95"] for r in rounds],
            "cpu_ms_per_request": {k.removeprefix("cpu_ms_per_request_"): spread(rounds, k)["median"]
                                   for k in rounds[0] if k.startswith("cpu_ms")},
            "sections": args.sections, "load_average": os.getloadavg()}), flush=True)


def widget_debounce_ms() -> float:
    """The widget's pause after the last keystroke before it searches (scheduleSearch in widget.js)."""
    source = (ROOT / "app" / "web" / "static" / "widget.js").read_text()
    found = re.search(r'scheduleSearch\(\) \{.*?self\.runSearch\("keyword"\); \}, (\d+)\)', source, re.S)
    if not found:
        raise SystemExit("widget.js: scheduleSearch's debounce not found")
    return float(found.group(1))


async def execute_once(url: str, statement: str) -> None:
    """One statement on a connection of its own (the server under test holds the pool)."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(statement)
    finally:
        await conn.close()


def bench_hybrid(env: dict[str, str], label: dict[str, object], questions: list[str], args: argparse.Namespace) -> None:
    """mode=hybrid as the box sends it: once, on submit, the whole question. Per client count a
    fresh server and no stored query embedding: round 1 embeds every question (cold), the later
    rounds find it cached (the process LRU)."""
    warm = ["configure the sidebar", "custom fonts"]  # pools, plans, the model's first call: not measured
    for clients in [int(c) for c in args.clients_list.split(",")]:
        asyncio.run(execute_once(env["DATABASE_URL"], "truncate public.docs_query_embedding"))
        process, base = start_server(env, int(args.workers.split(",")[0]))
        try:
            asyncio.run(box_round(base, 1, warm, "hybrid"))
            rounds = [asyncio.run(box_round(base, clients, questions, "hybrid")) for _ in range(args.rounds)]
            keyword = [asyncio.run(box_round(base, clients, questions, "keyword")) for _ in range(args.rounds)]
        finally:
            stop_server(process)
        print(json.dumps({**label, "mode": "hybrid", "workers": args.workers.split(",")[0], "clients": clients,
                          "questions": len(questions), "degraded": [r["degraded"] for r in rounds],
                          "cold_round1": {k: rounds[0][k] for k in ("p50", "p95", "rps")},
                          "cached_later_rounds": [{k: r[k] for k in ("p50", "p95", "rps")} for r in rounds[1:]],
                          "same_questions_keyword": [{k: r[k] for k in ("p50", "p95")} for r in keyword],
                          "load_average": os.getloadavg()}), flush=True)


def server_env(url: str, home: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"GEMINI_API_KEY", "OPENAI_API_KEY"}}
    env.update(DATABASE_URL=url, DOCSCHAT_HOME=home, EMBEDDING_PROVIDER="none", ANSWER_PROVIDER="extractive",
               SEARCH_RATE_LIMIT="100000000", LOG_LEVEL="warning", DOCS_DEFAULT_AUDIENCE="public",
               # No result cache in the rows that send each distinct prefix once a round: rounds 2
               # and 3 would be answered from it. --mix measures it, on a mix with repeats.
               SEARCH_CACHE_SIZE="0",
               PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p))
    return env


def run_box(url: str, home: str, args: argparse.Namespace) -> None:
    env = server_env(url, home)
    if args.mode == "hybrid":
        if not args.mintlify:
            raise SystemExit("--mode hybrid needs --mintlify (the synthetic corpus has no model to embed queries)")
        env["EMBEDDING_PROVIDER"] = "local"  # the offline model: the sync embeds, the server embeds each query
    rng = random.Random(99)
    if args.mintlify:
        repo = corpus_repo("mintlify-docs")
        sync = subprocess.run([sys.executable, "-m", "app", "sync", "--repo", str(repo), "--json"], env=env,
                              cwd=ROOT, capture_output=True, text=True, check=False)
        shutil.rmtree(repo, ignore_errors=True)
        if sync.returncode != 0:
            raise SystemExit(f"sync failed: {sync.stderr}")
        synced = json.loads(sync.stdout.splitlines()[-1])
        # What a server meets a minute after a sync (autovacuum's pass): hint bits set, the
        # visibility map written, statistics for the planner; the synthetic load does the same.
        asyncio.run(execute_once(url, "vacuum analyze docs_section, docs_section_fts"))
        if args.mode == "hybrid":
            words = re.findall(r"[a-z]{4,}", " ".join(MINTLIFY_QUESTIONS).lower())
            questions = list(MINTLIFY_QUESTIONS) + [f"how do I {' '.join(rng.sample(words, 3))}"
                                                    for _ in range(max(0, args.questions - len(MINTLIFY_QUESTIONS)))]
            bench_hybrid(env, {"corpus": "mintlify-docs", "sync": synced, "cpus": os.cpu_count()}, questions, args)
            return
        questions = [q.rstrip("?") for q in MINTLIFY_QUESTIONS]
        questions += [" ".join(rng.sample(re.findall(r"[a-z]{4,}", " ".join(MINTLIFY_QUESTIONS).lower()), 3))
                      for _ in range(args.questions - len(questions))]
        bench_box(env, {"corpus": "mintlify-docs", "sync": synced, "cpus": os.cpu_count()}, questions, args)
        return
    asyncio.run(ensure_schema(url))
    corpus = sentences_and_titles()
    centers = np.random.default_rng(7).normal(0, 1, size=(64, 768)).astype(np.float32)
    for n in [int(s) for s in args.sizes.split(",")]:
        async def load_n(n: int = n) -> None:
            pool = await create_pool(url, min_size=1, max_size=2)
            try:
                async with pool.acquire() as conn:
                    await load(conn, n, rng, centers, corpus, with_vectors=False)
            finally:
                await pool.close()

        asyncio.run(load_n())
        questions = []
        for _ in range(args.questions):
            words = re.findall(r"[A-Za-z]{3,}", rng.choice(corpus[0]))
            start = rng.randrange(max(1, len(words) - 3))
            questions.append(" ".join(words[start : start + rng.randint(2, 4)]) or "configure navigation")
        bench_box(env, {"corpus": "synthetic", "chunks": n, "cpus": os.cpu_count()}, questions, args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--questions", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--search-box", action="store_true", help="GET /docs/search from a separate process")
    parser.add_argument("--mintlify", action="store_true", help="--search-box on mintlify-docs, not synthetic")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", default="2")
    parser.add_argument("--client", choices=["lean", "httpx", "both"], default="both",
                        help="--search-box's load generator: raw asyncio HTTP/1.1 (lean) or httpx, or both")
    parser.add_argument("--sections", type=int, default=1,
                        help="--search-box: sections per page asked (the widget asks 1; the API's default is 3)")
    parser.add_argument("--typing-ms", type=float, default=0,
                        help="--search-box, lean: also a row at this typing pace (ms per keystroke, plus the "
                        "widget's debounce before each search); 0: back to back only")
    parser.add_argument("--mix", type=int, default=0,
                        help="--search-box: also rows with the result cache on and off over the prefixes of N "
                        "questions drawn by popularity (Zipf), a fresh server (empty cache) per round, with the hit rate")
    parser.add_argument("--mode", choices=["keyword", "hybrid"], default="keyword",
                        help="hybrid: whole questions with mode=hybrid (on submit), offline model, --mintlify only")
    parser.add_argument("--clients-list", default="1,8", help="--mode hybrid: the client counts measured")
    parser.add_argument("--breakdown", action="store_true",
                        help="search legs: also the vector leg with its coverage (as the fused call runs it) and "
                        "both legs side by side on two connections (the fused call without its fusion), a third step")
    args = parser.parse_args()
    with throwaway_database("docschat-bench-search-") as (url, home):
        if args.search_box:
            run_box(url, str(home), args)
        else:
            asyncio.run(run(url, [int(s) for s in args.sizes.split(",")], args.questions, args.rounds, args.breakdown))


if __name__ == "__main__":
    main()
