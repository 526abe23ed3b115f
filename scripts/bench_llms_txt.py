"""How long /llms.txt and /llms-full.txt take to build from the index (the first request after a
sync): a corpus from ../shared synced keyword-only into a throwaway embedded Postgres, then both texts
built `--runs` times, each by a fresh cache (app/doors/llms_txt.py LlmsTxtCache). Prints one JSON
line: the corpus, pages, bytes of each text, and the build time's median, min and max in ms.

    python scripts/bench_llms_txt.py --corpus mintlify-docs --runs 15 [--out folder]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from pathlib import Path

from _corpus import corpus_repo, throwaway_database


async def _measure(url: str, corpus: str, runs: int, out: Path | None) -> dict[str, object]:
    from app.config import Settings
    from app.corpus.sources import Source, SourcesConfig
    from app.db.pool import create_pool
    from app.doors.llms_txt import LlmsTxtCache
    from app.indexing.sync import sync_sources

    repo = corpus_repo(corpus)
    settings = Settings(database_url=url, embedding_provider="none")
    source = Source(name="docs", repo=repo, dir="docs", audiences=("public",))
    pool = await create_pool(url)
    try:
        report = await sync_sources(pool, SourcesConfig((source,)), settings, None)
        assert not report.failed, report.failed
        times: list[float] = []
        texts = None
        for _ in range(runs):
            cache = LlmsTxtCache(settings, (source,))
            started = time.perf_counter()
            texts = await cache.get(pool)
            times.append((time.perf_counter() - started) * 1000)
    finally:
        await pool.close()
    assert texts is not None
    if out is not None:  # to compare the texts of two checkouts
        out.mkdir(parents=True, exist_ok=True)
        (out / "llms.txt").write_text(texts.index)
        (out / "llms-full.txt").write_text(texts.full)
    return {"corpus": corpus, "runs": runs, "pages": texts.full.count("\nSource: "),
            "llms_txt_bytes": len(texts.index.encode()), "llms_full_txt_bytes": len(texts.full.encode()),
            "build_ms_median": round(statistics.median(times), 1), "build_ms_min": round(min(times), 1),
            "build_ms_max": round(max(times), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="mintlify-docs")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--out", type=Path, help="a folder to write both texts to")
    args = parser.parse_args()
    from app.db import migrate

    with throwaway_database("docschat-bench-llms-") as (url, _home):
        migrate.upgrade(url)  # alembic runs its own event loop: before ours
        print(json.dumps(asyncio.run(_measure(url, args.corpus, args.runs, args.out))))


if __name__ == "__main__":
    main()
