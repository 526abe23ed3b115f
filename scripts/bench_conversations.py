"""Follow-up questions with and without their conversation: page recall@k, by kind of line.

Syncs a corpus from ../shared/corpora (default mintlify-docs) into a throwaway embedded database
with the local model (embeddings cached in --cache-home, so later runs are fast), then scores
tests/data/conversations-<corpus>.jsonl (with --unseen, conversations-unseen-<corpus>.jsonl) twice with the same code as `docschat eval`: each line's
question searched with its "history" (as the chat does), and the same question alone. Lines with
"kind": "topic-switch" are questions that stand alone after an unrelated conversation: history must
not hurt them. Prints one JSON line per (lines, history) pair.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
from pathlib import Path

from _corpus import ROOT, SHARED, corpus_repo, throwaway_database

from app.config import Settings
from app.corpus.compose import DocsSource
from app.db.migrate import ensure_schema
from app.db.pool import create_pool
from app.embeddings.cache import EmbeddingCache, cache_path
from app.search.eval import evaluate, load_eval_file
from app.search.retrieve import build_retriever
from app.indexing.sync import sync_corpus

BASE_URLS = {"mintlify-docs": "https://mintlify.com/docs", "claude-docs": "https://docs.claude.com",
             "ray-docs": "https://docs.ray.io"}


async def run(url: str, repo: Path, questions: Path, k: int, home: Path, base_url: str, mode: str,
              verbose: bool = False) -> list[dict]:
    await ensure_schema(url)
    settings = Settings(embedding_provider="local", docs_url_prefix="", docs_base_url=base_url, docs_dir="docs")
    pool = await create_pool(url, max_size=4)
    cache = EmbeddingCache(cache_path(home))
    try:
        retriever = build_retriever(pool, settings)
        provider = retriever.embedder.provider if retriever.embedder else None
        await sync_corpus(pool, DocsSource(repo, "main", "docs"), settings, provider, cache=cache)
        if retriever.embedder is not None:  # load the model before the first question is timed
            await retriever.embedder.embed(pool, "warm up")
        items = load_eval_file(questions)
        kinds = {"follow-up": [i for i, line in enumerate(_raw(questions)) if line.get("kind") != "topic-switch"],
                 "topic-switch": [i for i, line in enumerate(_raw(questions)) if line.get("kind") == "topic-switch"]}
        results = []
        for use_history in (True, False):
            report = await evaluate(retriever, items, mode=mode, k=k, base_url=base_url, use_history=use_history)
            per_question = report["per_question"]
            if verbose:
                for q in per_question:
                    print(json.dumps({"history": use_history, "id": q["id"], "page_recall": q.get("page_recall"),
                                      "query": q["query"], "retrieved": q["retrieved"]}), file=sys.stderr)
            for kind, indexes in kinds.items():
                if not indexes:
                    continue
                chosen = [per_question[i] for i in indexes]
                results.append({
                    "lines": kind, "history": use_history, "questions": len(chosen), "mode": mode, "k": k,
                    "page_recall": round(sum(q["page_recall"] for q in chosen) / len(chosen), 4),
                    "section_recall": round(sum(q["recall"] for q in chosen) / len(chosen), 4),
                    "mrr": round(sum(q["mrr"] for q in chosen) / len(chosen), 4),
                    "completed": sum(1 for q in chosen if q["query"] != q["question"]),
                })
        return results
    finally:
        cache.close()
        await pool.close()


def _raw(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", default="mintlify-docs", choices=sorted(BASE_URLS))
    parser.add_argument("--questions", type=Path, default=None)
    parser.add_argument("--unseen", action="store_true",
                        help="the conversations written for issue 31 (tests/data/conversations-unseen-<corpus>.jsonl), "
                             "which no method was tuned on")
    parser.add_argument("--shared", type=Path, default=SHARED, help="the folder holding corpora/")
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--mode", default="hybrid", choices=["hybrid", "keyword", "vector"])
    parser.add_argument("--cache-home", type=Path, default=Path(".docschat"))
    parser.add_argument("--verbose", action="store_true", help="Every line's query and pages on stderr.")
    args = parser.parse_args()
    name = f"conversations-{'unseen-' if args.unseen else ''}{args.corpus.split('-')[0]}.jsonl"
    questions = args.questions or ROOT / "tests" / "data" / name
    repo = corpus_repo(args.corpus, args.shared)
    try:
        with throwaway_database("docschat-bench-conversations-") as (url, _home):
            for line in asyncio.run(run(url, repo, questions, args.k, args.cache_home, BASE_URLS[args.corpus],
                                        args.mode, args.verbose)):
                print(json.dumps(line))
    finally:
        shutil.rmtree(repo, ignore_errors=True)


if __name__ == "__main__":
    main()
