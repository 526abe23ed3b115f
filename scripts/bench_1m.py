"""Search at a million chunks: load, index builds, HNSW recall against exact search, latency.

The synthetic corpus of scripts/bench_search.py (sentences from ../shared/corpora/mintlify-docs,
768-d vectors around 64 cluster centres, ~70% of rows public), loaded in batches by binary COPY
(vectors as float32 numpy, one batch at a time) into a persistent embedded Postgres in
$DOCSCHAT_HOME (or DATABASE_URL), so that a long run can go on stage by stage:

  load        --chunks rows; meanwhile the exact top-40 (cosine, public rows only) of --recall-queries
              query vectors drawn as bench_search draws questions' vectors, kept in --state
  gin         the full-text GIN indexes: docs_section's, and those of the narrow table the leg reads
              (docs_section_fts, filled from docs_section by its statement triggers while loading:
              its GIN and its head index, as sql/020_section_fts.sql and sql/022_section_fts_head.sql),
              then the word statistics and vacuum analyze of both tables
  hnsw        the product's HNSW index, on the expression `embedding::halfvec(768)` (halfvec_cosine_ops;
              pgvector's defaults m=16, ef_construction=64, as sql/023_halfvec_index.sql)
  float32     for comparison, the index the product had before 2026_12_02_0023: HNSW on `embedding`
              itself (vector_cosine_ops, as sql/014_baseline.sql), docs_section_float32_idx
  recall      recall@10 and @40 of the vector leg (public.match_docs_sections, ef_search 100,
              iterative scan) and, when the float32 index exists, of the same query ordered by the
              float32 distance on that index, against the exact top-k;
              a few exact top-k re-checked in SQL with the index off
  recall_ef   the same for both indexes at --ef-search (the vector leg's query in SQL: the function
              sets 100)
  keyword     the full-text leg alone (p50/p95, CPU per call), before any HNSW index exists
  latency     both legs' and the fused p50/p95 through the product's Retriever (bench_search's
              measure()), --runs runs, and the CPU milliseconds per call (client and Postgres)

(Until 2026_12_02_0023 `hnsw` built the float32 index and a `halfvec` stage the expression one,
docs_section_halfvec_idx: the figures of design/vector-index.md name them so.)

Each index build reports its wall time, the CPU seconds of the backend and of the whole cluster
(parallel workers included, from /proc) and its size. Every figure is a JSON line on stdout and in
--state/results.jsonl.

    DOCSCHAT_HOME=/tmp/m1/home nice -n 19 python scripts/bench_1m.py --chunks 1000000 \
        --stages load,gin,hnsw,recall,latency,float32,recall
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import time
from pathlib import Path

import asyncpg
import numpy as np
from _corpus import ROOT  # noqa: F401  (puts the checkout on sys.path)
from bench_search import (
    MODEL,
    PrecomputedProvider,
    descendants,
    measure,
    percentiles,
    process_cpu_seconds,
    sentences_and_titles,
)

from app.config import Settings
from app.db.embedded import ensure_embedded_server
from app.db.migrate import ensure_schema
from app.db.pool import create_pool
from app.search.legs import match_docs_sections, search_docs_sections
from app.search.query_embedding import QueryEmbedder
from app.search.retrieve import Retriever

COLUMNS = ["id", "source", "page", "title", "heading", "breadcrumb", "href", "content", "audiences", "content_hash",
           "embedding", "embedding_model"]
K = 40  # LEG_MATCH_COUNT: the vector leg's depth in the fused retrieval

# The vector leg's query as public.match_docs_sections ran it before 2026_12_02_0023: ordered by the
# float32 distance, which only the comparison's float32 index serves.
FLOAT32_LEG_SQL = """
with nearest as materialized (
  select d.id, d.embedding operator(public.<=>) $1::public.vector(768) as distance
  from public.docs_section d
  where d.embedding_model = $2 and d.audiences operator(pg_catalog.&&) $4
  order by d.embedding operator(public.<=>) $1::public.vector(768)
  limit $3
)
select * from nearest order by distance, id
"""
# The product's leg (the halfvec index's expression) for an ef_search other than the function's own (100).
HALFVEC_LEG_SQL = """
with nearest as materialized (
  select d.id, d.embedding operator(public.<=>) $1::public.vector(768) as distance
  from public.docs_section d
  where d.embedding_model = $2 and d.audiences operator(pg_catalog.&&) $4
  order by d.embedding::public.halfvec(768) operator(public.<=>) $1::public.vector(768)::public.halfvec(768)
  limit $3
)
select * from nearest order by distance, id
"""
EXACT_SQL = """
select d.id from public.docs_section d
where d.embedding_model = $2 and d.audiences operator(pg_catalog.&&) $4
order by d.embedding operator(public.<=>) $1 limit $3
"""


def emit(state: Path, record: dict[str, object]) -> None:
    line = json.dumps({"at": time.strftime("%H:%M:%S", time.gmtime()), **record})
    print(line, flush=True)
    with open(state / "results.jsonl", "a") as out:
        out.write(line + "\n")


def section_id(i: int) -> str:
    return f"docs:page-{i // 8}.mdx#s{i % 8}"


def cluster_cpu_seconds(postmaster: int) -> float:
    """CPU of the whole cluster so far: the postmaster with its reaped children (parallel workers
    that ended) and every live process below it."""
    with open(f"/proc/{postmaster}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    reaped = (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")
    return reaped + process_cpu_seconds(descendants(postmaster))


def rss_gb() -> float:
    with open("/proc/meminfo") as meminfo:
        info = {line.split(":")[0]: int(line.split()[1]) for line in meminfo}
    return round(info["MemAvailable"] / 1e6, 1)


def draw_vector(centers: np.ndarray, rng: random.Random, np_rng: np.random.Generator) -> np.ndarray:
    vector = centers[rng.randrange(len(centers))] + np_rng.normal(0, 0.35, size=768)
    return (vector / np.linalg.norm(vector)).astype(np.float32)


def batches(n: int, batch: int, corpus, centers: np.ndarray, seed: int):
    """(first row, records, vectors, public mask) per batch: bench_search.load()'s rows, built one
    batch at a time (its `load` holds every record at once: ~4 GB of Python objects at 1M)."""
    sentences, titles, headings = corpus
    rng = random.Random(seed)
    np_rng = np.random.default_rng(seed)
    for first in range(0, n, batch):
        size = min(batch, n - first)
        rows = np.arange(first, first + size)
        vectors = centers[rows % len(centers)] + np_rng.normal(0, 0.35, size=(size, 768)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        public = np.array([rng.random() < 0.7 for _ in range(size)])
        records = []
        for j, i in enumerate(rows.tolist()):
            page = f"page-{i // 8}.mdx"
            records.append((
                section_id(i), "docs", page, rng.choice(titles), rng.choice(headings), "bench",
                f"/docs/page-{i // 8}#s{i % 8}", " ".join(rng.sample(sentences, rng.randint(3, 8))),
                ["public"] if public[j] else ["internal"], "hash", vectors[j], MODEL,
            ))
        yield first, records, vectors, public


async def stage_load(conn, args, state: Path, postmaster: int, corpus, centers: np.ndarray) -> None:
    await conn.execute("truncate docs_section, docs_lexeme_stats, docs_search_stats")
    for index in ("docs_section_embedding_idx", "docs_section_search_vector_idx", "docs_section_float32_idx",
                  "docs_section_halfvec_idx", "docs_section_fts_search_vector_idx", "docs_section_fts_head_idx"):
        await conn.execute(f"drop index if exists public.{index}")  # names are constants
    client_before, cluster_before = time.process_time(), cluster_cpu_seconds(postmaster)
    rng, np_rng = random.Random(4321), np.random.default_rng(4321)
    queries = np.stack([draw_vector(centers, rng, np_rng) for _ in range(args.recall_queries)])
    best_d = np.full((len(queries), K), np.inf)
    best_i = np.full((len(queries), K), -1, dtype=np.int64)
    started = time.perf_counter()
    copy_seconds = 0.0
    for first, records, vectors, public in batches(args.chunks, args.batch, corpus, centers, args.seed):
        copy_started = time.perf_counter()
        await conn.copy_records_to_table("docs_section", records=records, columns=COLUMNS)
        copy_seconds += time.perf_counter() - copy_started
        # Exact cosine distance in float64 of the float32 vectors stored, public rows only.
        v = vectors.astype(np.float64)
        distance = 1 - (queries.astype(np.float64) @ v.T) / np.outer(
            np.linalg.norm(queries, axis=1), np.linalg.norm(v, axis=1))
        distance[:, ~public] = np.inf
        all_d = np.concatenate([best_d, distance], axis=1)
        all_i = np.concatenate([best_i, np.broadcast_to(np.arange(first, first + len(records)), distance.shape)], axis=1)
        keep = np.argpartition(all_d, K - 1, axis=1)[:, :K]
        best_d, best_i = np.take_along_axis(all_d, keep, 1), np.take_along_axis(all_i, keep, 1)
        if (first // args.batch) % 10 == 0:
            print(json.dumps({"loaded": first + len(records), "seconds": round(time.perf_counter() - started),
                              "mem_available_gb": rss_gb()}), flush=True)
    order = np.argsort(best_d, axis=1)
    np.savez(state / "exact.npz", queries=queries, ids=np.take_along_axis(best_i, order, 1),
             distances=np.take_along_axis(best_d, order, 1))
    emit(state, {"stage": "load", "chunks": args.chunks, "seconds": round(time.perf_counter() - started, 1),
                 "copy_seconds": round(copy_seconds, 1),
                 "client_cpu_seconds": round(time.process_time() - client_before, 1),
                 "cluster_cpu_seconds": round(cluster_cpu_seconds(postmaster) - cluster_before, 1),
                 "load_average": os.getloadavg(),
                 "docs_section_fts_rows": await conn.fetchval("select count(*) from public.docs_section_fts"),
                 **await sizes(conn)})


async def sizes(conn) -> dict[str, object]:
    rows = await conn.fetch("""
        select c.relname, pg_relation_size(c.oid) as main, pg_table_size(c.oid) as with_toast
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and (c.relname in ('docs_section', 'docs_section_fts')
               or c.oid in (select indexrelid from pg_index
                            where indrelid in ('public.docs_section'::regclass, 'public.docs_section_fts'::regclass)))""")
    return {"sizes_mb": {r["relname"]: {"main": round(r["main"] / 1e6), "with_toast": round(r["with_toast"] / 1e6)}
                         if r["relname"] in ("docs_section", "docs_section_fts") else round(r["main"] / 1e6)
                         for r in rows}}


async def timed_build(conn, postmaster: int, state: Path, stage: str, statement: str, args) -> None:
    await conn.execute(f"set maintenance_work_mem = '{args.maintenance_work_mem}'")  # a constant of ours
    await conn.execute(f"set max_parallel_maintenance_workers = {int(args.parallel_workers)}")
    backend = await conn.fetchval("select pg_backend_pid()")
    backend_before, cluster_before = process_cpu_seconds([backend]), cluster_cpu_seconds(postmaster)
    started = time.perf_counter()
    await conn.execute(statement)
    wall = time.perf_counter() - started
    emit(state, {"stage": stage, "statement": statement, "wall_seconds": round(wall, 1),
                 "backend_cpu_seconds": round(process_cpu_seconds([backend]) - backend_before, 1),
                 "cluster_cpu_seconds": round(cluster_cpu_seconds(postmaster) - cluster_before, 1),
                 "maintenance_work_mem": args.maintenance_work_mem, "parallel_workers": args.parallel_workers,
                 "mem_available_gb_after": rss_gb(), "load_average": os.getloadavg(), **await sizes(conn)})


async def stage_recall(conn, args, state: Path, ef_search: int = 100) -> None:
    """At ef_search 100 the vector leg is the product's function; at another, the same query in SQL."""
    exact = np.load(state / "exact.npz")
    queries, exact_ids = exact["queries"], exact["ids"]
    has_float32 = await conn.fetchval("select to_regclass('public.docs_section_float32_idx') is not null")
    legs = {"halfvec": None if ef_search == 100 else HALFVEC_LEG_SQL, **({"float32": FLOAT32_LEG_SQL} if has_float32 else {})}
    for leg, sql in legs.items():
        await conn.execute("set enable_seqscan = off")
        await conn.execute(f"set hnsw.ef_search = {int(ef_search)}")
        await conn.execute("set hnsw.iterative_scan = 'relaxed_order'")
        recall: dict[int, list[float]] = {10: [], K: []}
        timings: list[float] = []
        for q, vector in enumerate(queries):
            truth = [section_id(int(i)) for i in exact_ids[q]]
            for k in (10, K):
                started = time.perf_counter()
                if sql is None:  # the product's function, as the vector leg calls it
                    found = [h.id for h in await match_docs_sections(conn, vector, MODEL, k, ["public"])]
                else:
                    found = [r["id"] for r in await conn.fetch(sql, vector, MODEL, k, ["public"])]
                timings.append((time.perf_counter() - started) * 1000)
                recall[k].append(len(set(found) & set(truth[:k])) / k)
        emit(state, {"stage": f"recall_{leg}", "queries": len(queries), "ef_search": ef_search,
                     **{f"recall@{k}": round(float(np.mean(v)), 4) for k, v in recall.items()},
                     **{f"recall@{k}_lowest5": sorted(round(x, 2) for x in v)[:5] for k, v in recall.items()},
                     "queries_recall@10_below_0.5": sum(x < 0.5 for x in recall[10]),
                     "query_ms_p50": round(float(np.median(timings)), 1),
                     "query_ms_p95": round(float(np.percentile(timings, 95)), 1)})
    # The exact top-k above is numpy's; a few re-checked by Postgres with no index.
    await conn.execute("reset enable_seqscan")
    await conn.execute("set enable_indexscan = off")
    agree = []
    for q in range(args.sql_checks):
        rows = await conn.fetch(EXACT_SQL, queries[q], MODEL, K, ["public"])
        agree.append(len({r["id"] for r in rows} & {section_id(int(i)) for i in exact_ids[q]}) / K)
    await conn.execute("reset enable_indexscan")
    emit(state, {"stage": "exact_sql_check", "queries": args.sql_checks, "overlap_with_numpy_exact@40": agree})


def questions_like_bench(corpus, centers: np.ndarray, n: int, seed: int) -> tuple[list[str], dict[str, list[float]]]:
    """Questions and their vectors drawn as bench_search.run() draws them."""
    rng, np_rng = random.Random(seed), np.random.default_rng(seed)
    questions: list[str] = []
    vectors: dict[str, list[float]] = {}
    while len(questions) < n:
        words = re.findall(r"[A-Za-z]{3,}", rng.choice(corpus[0]))
        start = rng.randrange(max(1, len(words) - 4))
        question = " ".join(words[start : start + rng.randint(4, 8)]) or "configure navigation"
        if question not in vectors:
            vectors[question] = draw_vector(centers, rng, np_rng).tolist()
            questions.append(question)
    return questions, vectors


async def cpu_per_call(pool, postmaster: int, questions: list[str], vectors) -> dict[str, dict[str, float]]:
    """CPU milliseconds per call of each leg alone and of the fused retrieval: Postgres' (whole
    cluster) and this client's, one pass over the questions."""
    settings = Settings(leg_timeout_seconds=30, query_embedding_timeout_seconds=30)
    retriever = Retriever(pool, settings, QueryEmbedder(PrecomputedProvider(vectors)))
    figures = {}
    for leg in ("keyword", "vector", "fused"):
        client, cluster = time.process_time(), cluster_cpu_seconds(postmaster)
        for question in questions:
            if leg == "fused":
                await retriever.retrieve(question, audiences=["public"])
                continue
            async with pool.acquire() as conn:
                if leg == "keyword":
                    await search_docs_sections(conn, question, settings.leg_match_count, ["public"])
                else:
                    await match_docs_sections(conn, vectors[question], MODEL, settings.leg_match_count, ["public"])
        figures[leg] = {"postgres": round((cluster_cpu_seconds(postmaster) - cluster) * 1000 / len(questions), 1),
                        "client": round((time.process_time() - client) * 1000 / len(questions), 1)}
    return figures


async def stage_latency(url: str, args, state: Path, postmaster: int, corpus, centers) -> None:
    questions, vectors = questions_like_bench(corpus, centers, args.questions, args.chunks)
    pool = await create_pool(url, min_size=2, max_size=4)
    try:
        for run in range(1, args.runs + 1):
            started = time.perf_counter()
            figures = await measure(pool, questions, vectors, args.rounds)
            cpu = await cpu_per_call(pool, postmaster, questions, vectors)
            emit(state, {"stage": "latency", "run": run, "chunks": args.chunks, "questions": len(questions),
                         "rounds": args.rounds, **figures, "cpu_ms_per_call": cpu,
                         "seconds": round(time.perf_counter() - started), "load_average": os.getloadavg()})
    finally:
        await pool.close()


async def stage_keyword(url: str, args, state: Path, postmaster: int, corpus, centers) -> None:
    """The full-text leg alone (no HNSW index needed): p50/p95 and CPU per call, --runs runs."""
    questions, _ = questions_like_bench(corpus, centers, args.questions, args.chunks)
    settings = Settings()
    conn = await asyncpg.connect(url)
    try:
        for question in questions:  # warm-up: plans, caches
            await search_docs_sections(conn, question, settings.leg_match_count, ["public"])
        for run in range(1, args.runs + 1):
            samples: list[float] = []
            client, cluster = time.process_time(), cluster_cpu_seconds(postmaster)
            for _ in range(args.rounds):
                for question in questions:
                    started = time.perf_counter()
                    await search_docs_sections(conn, question, settings.leg_match_count, ["public"])
                    samples.append((time.perf_counter() - started) * 1000)
            emit(state, {"stage": "keyword_leg", "run": run, "chunks": args.chunks, "questions": len(questions),
                         "rounds": args.rounds, "keyword": percentiles(samples),
                         "cpu_ms_per_call": {
                             "postgres": round((cluster_cpu_seconds(postmaster) - cluster) * 1000 / len(samples), 1),
                             "client": round((time.process_time() - client) * 1000 / len(samples), 1)},
                         "load_average": os.getloadavg()})
    finally:
        await conn.close()


async def main_async(args) -> None:
    state = Path(args.state)
    state.mkdir(parents=True, exist_ok=True)
    url = os.environ.get("DATABASE_URL") or ensure_embedded_server(Path(os.environ["DOCSCHAT_HOME"]))
    await ensure_schema(url)
    folder = Path(os.environ.get("DOCSCHAT_HOME", "")) / "pg" / "postmaster.pid"
    postmaster = int(folder.read_text().split()[0])
    corpus = sentences_and_titles()
    centers = np.random.default_rng(7).normal(0, 1, size=(64, 768)).astype(np.float32)
    conn = await asyncpg.connect(url)
    from pgvector.asyncpg import register_vector
    await register_vector(conn)
    try:
        for stage in args.stages.split(","):
            if stage == "load":
                await stage_load(conn, args, state, postmaster, corpus, centers)
            elif stage == "gin":
                await timed_build(conn, postmaster, state, "gin", "create index docs_section_search_vector_idx "
                                  "on public.docs_section using gin (search_vector)", args)
                # The narrow table the full-text leg reads (sql/020_section_fts.sql, 022_section_fts_head.sql).
                await timed_build(conn, postmaster, state, "gin_fts", "create index docs_section_fts_search_vector_idx "
                                  "on public.docs_section_fts using gin (search_vector)", args)
                await timed_build(conn, postmaster, state, "gin_fts_head", "create index docs_section_fts_head_idx "
                                  "on public.docs_section_fts using gin (pg_catalog.ts_filter(search_vector, '{a,b}'))",
                                  args)
                cluster = cluster_cpu_seconds(postmaster)
                started = time.perf_counter()
                await conn.fetchval("select public.refresh_docs_search_stats()")
                stats = time.perf_counter() - started
                started = time.perf_counter()
                await conn.execute("vacuum analyze public.docs_section, public.docs_section_fts")
                emit(state, {"stage": "stats_and_vacuum", "refresh_docs_search_stats_seconds": round(stats, 1),
                             "vacuum_analyze_seconds": round(time.perf_counter() - started, 1),
                             "cluster_cpu_seconds": round(cluster_cpu_seconds(postmaster) - cluster, 1),
                             "load_average": os.getloadavg()})
            elif stage == "hnsw":
                await timed_build(conn, postmaster, state, "hnsw_halfvec", "create index docs_section_embedding_idx "
                                  "on public.docs_section using hnsw "
                                  "((embedding::public.halfvec(768)) public.halfvec_cosine_ops)", args)
            elif stage == "float32":
                await timed_build(conn, postmaster, state, "hnsw_float32", "create index docs_section_float32_idx "
                                  "on public.docs_section using hnsw (embedding public.vector_cosine_ops)", args)
            elif stage == "drop_float32":
                await conn.execute("drop index if exists public.docs_section_float32_idx")
            elif stage == "recall":
                await stage_recall(conn, args, state)
            elif stage == "recall_ef":  # both indexes at --ef-search (a deployment's knob to raise recall)
                await stage_recall(conn, args, state, args.ef_search)
            elif stage == "keyword":
                await stage_keyword(url, args, state, postmaster, corpus, centers)
            elif stage == "latency":
                await stage_latency(url, args, state, postmaster, corpus, centers)
            else:
                raise SystemExit(f"unknown stage {stage!r}")
    finally:
        await conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chunks", type=int, default=1_000_000)
    parser.add_argument("--batch", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1234)
    parser.add_argument("--stages", default="load,gin,hnsw,recall,latency,float32,recall")
    parser.add_argument("--state", default="/tmp/bench-1m", help="exact top-k and results.jsonl")
    parser.add_argument("--recall-queries", type=int, default=200)
    parser.add_argument("--sql-checks", type=int, default=3, help="exact top-k re-checked by Postgres (a seq scan each)")
    parser.add_argument("--questions", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--maintenance-work-mem", default="7GB", choices=["1GB", "2GB", "4GB", "6GB", "7GB", "8GB"])
    parser.add_argument("--parallel-workers", type=int, default=1)
    parser.add_argument("--ef-search", type=int, default=400, help="hnsw.ef_search of the recall_ef stage")
    args = parser.parse_args()
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
