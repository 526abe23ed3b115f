"""Keyword retrieval over ../shared/corpora/mintlify-docs: directly, and through PgBouncer in
transaction mode (DATABASE_POOLER=transaction: no statement cache).

    eval "$(python scripts/ci_postgres.py start /tmp/x/pg auto)"                # TEST_DATABASE_URL
    BOUNCER=$(python scripts/ci_pgbouncer.py start /tmp/x/bouncer auto)        # prints the pooled URLs
    python scripts/bench_pooler.py DIRECT_OWNER_URL POOLED_OWNER_URL [--rounds 3]

A throwaway database is created on the server, migrated and synced keyword-only; then each
configuration answers the 10 MINTLIFY_QUESTIONS × 20, one at a time (client side, warm), over a
pool of 4: p50/p95 in ms per round. The database is dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
import uuid
from urllib.parse import urlsplit, urlunsplit

import asyncpg
from _corpus import MINTLIFY_QUESTIONS, corpus_repo

from app.config import Settings, get_settings
from app.corpus.compose import DocsSource
from app.db.migrate import ensure_schema
from app.db.pool import create_pool
from app.search.retrieve import build_retriever
from tests.helpers import sync_corpus


def _db(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path="/" + name))


async def _time(url: str, pooler: str, rounds: int) -> list[tuple[float, float]]:
    os.environ["DATABASE_POOLER"] = pooler
    get_settings.cache_clear()
    settings = Settings(embedding_provider="none", docs_dir="docs")
    pool = await create_pool(url, min_size=4, max_size=4)
    try:
        retriever = build_retriever(pool, settings)
        for question in MINTLIFY_QUESTIONS:  # warm
            await retriever.retrieve(question, mode="keyword", audiences=["public"])
        figures = []
        for _ in range(rounds):
            times = []
            for _ in range(20):
                for question in MINTLIFY_QUESTIONS:
                    started = time.perf_counter()
                    await retriever.retrieve(question, mode="keyword", audiences=["public"])
                    times.append((time.perf_counter() - started) * 1000)
            times.sort()
            figures.append((statistics.median(times), times[int(len(times) * 0.95) - 1]))
        return figures
    finally:
        await pool.close()


async def main(args: argparse.Namespace) -> None:
    name = "bench_pooler_" + uuid.uuid4().hex[:8]
    conn = await asyncpg.connect(args.direct)
    await conn.execute(f'create database "{name}"')  # hex digits: safe in DDL
    await conn.close()
    try:
        direct, pooled = _db(args.direct, name), _db(args.pooled, name)
        await ensure_schema(direct)
        pool = await create_pool(direct)
        try:
            repo = corpus_repo("mintlify-docs")
            settings = Settings(embedding_provider="none", docs_dir="docs", docs_include=["**/*.md", "**/*.mdx"])
            report = await sync_corpus(pool, DocsSource(repo, "main", "docs"), settings, None)
            print(f"corpus: {report.chunks} chunks", file=sys.stderr)
        finally:
            await pool.close()
        for label, url, pooler in (("direct, statement cache", direct, "none"),
                                   ("direct, no statement cache", direct, "transaction"),
                                   ("PgBouncer transaction mode", pooled, "transaction")):
            figures = await _time(url, pooler, args.rounds)
            text = "; ".join(f"p50 {p50:.2f} p95 {p95:.2f}" for p50, p95 in figures)
            print(f"{label}: {text}")
    finally:
        conn = await asyncpg.connect(args.direct)
        await conn.execute(f'drop database if exists "{name}" with (force)')
        await conn.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("direct")
    parser.add_argument("pooled")
    parser.add_argument("--rounds", type=int, default=3)
    asyncio.run(main(parser.parse_args()))
