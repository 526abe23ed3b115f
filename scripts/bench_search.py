"""Search latency on synthetic corpora of 1k, 10k and 100k chunks (embedded Postgres, warm).

Texts are sentences sampled from ../shared/corpora/mintlify-docs; vectors are 768-d with cluster
structure; ~70% of rows are public. Questions are 4–8 word phrases from the same text, searched
public-only. Prints p50/p95 (ms, client side) of each leg and of the fused retrieval, the
question embedding excluded (vectors are precomputed).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import shutil
import statistics
import time

import numpy as np
from _corpus import corpus_repo, throwaway_database

from app.config import Settings
from app.corpus.compose import DocsSource, compose_corpus
from app.db.migrate import ensure_schema
from app.db.pool import create_pool
from app.search.legs import match_docs_sections, search_docs_sections
from app.search.query_embedding import QueryEmbedder
from app.search.retrieve import Retriever

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


async def load(conn, n: int, rng: random.Random, centers: np.ndarray, corpus) -> None:
    sentences, titles, headings = corpus
    await conn.execute("truncate docs_section, docs_lexeme_stats, docs_search_stats")
    await conn.execute("drop index if exists docs_section_embedding_idx")
    await conn.execute("drop index if exists docs_section_search_vector_idx")
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
            vector.astype(np.float32), MODEL,
        ))
    await conn.copy_records_to_table(
        "docs_section", records=records,
        columns=["id", "source", "page", "title", "heading", "breadcrumb", "href", "content", "audiences", "content_hash",
                 "embedding", "embedding_model"],
    )
    await conn.execute("set maintenance_work_mem = '2GB'")
    await conn.execute("create index docs_section_search_vector_idx on public.docs_section using gin (search_vector)")
    await conn.execute(
        "create index docs_section_embedding_idx on public.docs_section using hnsw (embedding public.vector_cosine_ops)"
    )
    await conn.fetchval("select public.refresh_docs_search_stats()")
    await conn.execute("vacuum analyze docs_section")


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50": round(statistics.median(ordered), 2),
        "p95": round(ordered[max(0, int(round(0.95 * len(ordered))) - 1)], 2),
    }


async def measure(pool, questions: list[str], vectors: dict[str, list[float]], rounds: int) -> dict[str, object]:
    settings = Settings(leg_timeout_seconds=30, query_embedding_timeout_seconds=30)
    retriever = Retriever(pool, settings, QueryEmbedder(PrecomputedProvider(vectors)))
    timings: dict[str, list[float]] = {"keyword": [], "vector": [], "fused": []}
    stages: dict[str, list[float]] = {}  # inside the fused retrieval, as it times itself
    for question in questions:  # warm-up: plans, caches, the query-vector LRU
        await retriever.retrieve(question, audiences=["public"])
    for round_number in range(rounds):
        for index, question in enumerate(questions):
            # Whatever runs second finds the pages the first one read in shared buffers:
            # alternate the order so neither the legs nor the fused retrieval get that edge.
            steps = ["legs", "fused"] if (index + round_number) % 2 == 0 else ["fused", "legs"]
            for step in steps:
                if step == "legs":
                    async with pool.acquire() as conn:
                        start = time.perf_counter()
                        await search_docs_sections(conn, question, settings.leg_match_count, ["public"])
                        timings["keyword"].append((time.perf_counter() - start) * 1000)
                        start = time.perf_counter()
                        await match_docs_sections(conn, vectors[question], MODEL, settings.leg_match_count, ["public"])
                        timings["vector"].append((time.perf_counter() - start) * 1000)
                else:
                    start = time.perf_counter()
                    result = await retriever.retrieve(question, audiences=["public"])
                    timings["fused"].append((time.perf_counter() - start) * 1000)
                    assert result.degraded is None, result.errors
                    for stage, ms in result.timings_ms.items():
                        stages.setdefault(stage, []).append(ms)
    figures = {leg: percentiles(samples) for leg, samples in timings.items()}
    slower = max(figures["keyword"]["p95"], figures["vector"]["p95"])
    figures["fused_p95_over_slower_leg"] = round(figures["fused"]["p95"] / slower, 2) if slower else None
    # Where the fused time goes; "rescue" runs only for answers of low confidence ("runs": how often).
    figures["fused_stages"] = {
        stage: {**percentiles(samples), "runs": len(samples)} for stage, samples in sorted(stages.items())
    }
    return figures


async def run(url: str, sizes: list[int], n_questions: int, rounds: int) -> None:
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
            figures = await measure(pool, questions, vectors, rounds)
            print(json.dumps({"chunks": n, "load_seconds": round(load_seconds, 1), **figures}), flush=True)
    finally:
        await pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--questions", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with throwaway_database("docschat-bench-search-") as (url, _home):
        asyncio.run(run(url, [int(s) for s in args.sizes.split(",")], args.questions, args.rounds))


if __name__ == "__main__":
    main()
