"""Retrieval quality on ../shared/eval/claude-docs-dev.jsonl, all three modes, with the local model.

Syncs ../shared/corpora/claude-docs into a throwaway embedded database (embeddings cached in
DOCSCHAT_HOME, so later runs are fast), then runs the same evaluation as `docschat eval`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
from pathlib import Path

from _corpus import SHARED, corpus_repo, throwaway_database

from app.config import Settings
from app.corpus.compose import DocsSource
from app.db.migrate import ensure_schema
from app.db.pool import create_pool
from app.embeddings.cache import EmbeddingCache, cache_path
from app.search.eval import evaluate, load_eval_file
from app.search.retrieve import MODES, build_retriever
from app.indexing.sync import sync_corpus


async def run(url: str, repo: Path, questions: Path, k: int, home: Path) -> list[dict[str, object]]:
    await ensure_schema(url)
    settings = Settings(
        embedding_provider="local", docs_url_prefix="", docs_base_url="https://docs.claude.com", docs_dir="docs"
    )
    retriever_pool = await create_pool(url, max_size=4)
    cache = EmbeddingCache(cache_path(home))
    try:
        retriever = build_retriever(retriever_pool, settings)
        provider = retriever.embedder.provider if retriever.embedder else None
        await sync_corpus(retriever_pool, DocsSource(repo, "main", "docs"), settings, provider, cache=cache)
        items = load_eval_file(questions)
        results = []
        for mode in MODES:
            report = await evaluate(retriever, items, mode=mode, k=k, base_url=settings.docs_base_url)
            report.pop("per_question")
            results.append(report)
        return results
    finally:
        cache.close()
        await retriever_pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--questions", type=Path, default=SHARED / "eval" / "claude-docs-dev.jsonl")
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--cache-home", type=Path, default=Path(".docschat"))
    args = parser.parse_args()
    repo = corpus_repo("claude-docs")
    try:
        with throwaway_database("docschat-bench-eval-") as (url, _home):
            for report in asyncio.run(run(url, repo, args.questions, args.k, args.cache_home)):
                print(json.dumps(report))
    finally:
        shutil.rmtree(repo, ignore_errors=True)


if __name__ == "__main__":
    main()
