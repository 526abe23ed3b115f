"""Code questions over this repository's own app/ at a pinned commit: file recall@3 and whether the
gold symbol's lines are in the top 3 chunks, in each retrieval mode (local model for vectors).

Syncs app/ of the pinned commit into a throwaway embedded database as a code source, then asks
tests/data/code-questions.jsonl. A chunk "has the gold lines" when it is in the gold file and its
line range holds the gold symbol's first line (the def/class line or its decorator).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
from pathlib import Path

from _corpus import ROOT, throwaway_database

from app.config import Settings
from app.corpus.code import DEFAULT_CODE_EXCLUDE, DEFAULT_CODE_INCLUDE
from app.corpus.sources import Source, SourcesConfig
from app.db.migrate import ensure_schema
from app.db.pool import create_pool
from app.embeddings.cache import EmbeddingCache, cache_path
from app.embeddings.providers import get_embedding_provider
from app.indexing.sync import sync_sources
from app.search.query_embedding import QueryEmbedder
from app.search.retrieve import MODES, Retriever

LINK = "https://github.com/docschat/docschat/blob/{commit}/{path}#L{start}-L{end}"
_LINES = re.compile(r"/blob/[0-9a-f]+/(.+)#L(\d+)-L(\d+)$")


def _where(href: str) -> tuple[str, int, int] | None:
    match = _LINES.search(href)
    return (match.group(1), int(match.group(2)), int(match.group(3))) if match else None


async def run(url: str, questions: list[dict], commit: str, k: int, home: Path, embedding: str) -> list[dict]:
    await ensure_schema(url)
    # Quality, not latency: a slow CPU must not degrade a question to keyword-only.
    settings = Settings(embedding_provider=embedding, query_embedding_timeout_seconds=120, leg_timeout_seconds=120)
    # The code source alone, at the pinned commit (any revision works as the branch).
    config = SourcesConfig((Source("app", ROOT, commit, "app", kind="code", link=LINK, weight=0.8,
                                   include=tuple(DEFAULT_CODE_INCLUDE), exclude=tuple(DEFAULT_CODE_EXCLUDE)),))
    pool = await create_pool(url, max_size=4)
    cache = EmbeddingCache(cache_path(home))
    try:
        provider = get_embedding_provider(settings)
        retriever = Retriever(pool, settings, QueryEmbedder(provider) if provider else None, config)
        report = await sync_sources(pool, config, settings, provider, cache=cache)
        reports = []
        for mode in MODES if provider else ("keyword",):
            files_hit = lines_hit = kept_hit = degraded = 0
            misses = []
            for item in questions:
                retrieval = await retriever.retrieve(item["question"], mode=mode)
                degraded += retrieval.degraded is not None
                top = [w for w in (_where(f.hit.href) for f in retrieval.ranking) if w]
                files: list[str] = []
                for path, _, _ in top:
                    if path not in files:
                        files.append(path)
                gold_path, gold_start = item["path"], item["start_line"]
                file_ok = gold_path in files[:k]
                lines_ok = any(p == gold_path and s <= gold_start <= e for p, s, e in top[:k])
                kept_ok = any((where := _where(p.href)) is not None and where[0] == gold_path for p in retrieval.pages)
                files_hit += file_ok
                lines_hit += lines_ok
                kept_hit += kept_ok
                if not lines_ok:
                    misses.append({"id": item["id"], "symbol": item["symbol"], "top": [f"{p}#L{s}-L{e}" for p, s, e in top[:k]]})
            n = len(questions)
            reports.append({
                "mode": mode, "k": k, "questions": n, "chunks": report.chunks,
                "file_recall_at_k": round(files_hit / n, 4), "gold_lines_in_top_k": round(lines_hit / n, 4),
                "file_in_kept_pages": round(kept_hit / n, 4), "degraded": degraded, "misses": misses,
            })
        return reports
    finally:
        cache.close()
        await pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--questions", type=Path, default=ROOT / "tests" / "data" / "code-questions.jsonl")
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--cache-home", type=Path, default=Path(".docschat"))
    parser.add_argument("--embedding", default="local", choices=["local", "none"])
    args = parser.parse_args()
    questions = [json.loads(line) for line in args.questions.read_text().splitlines() if line.strip()]
    golds = [_LINES.search(q["gold"][0]) for q in questions]
    assert all(golds), "a question's gold is not a code line range"
    commits = {gold.group(0).split("/")[2] for gold in golds if gold}
    if len(commits) != 1:
        raise SystemExit(f"the questions must share one pinned commit, found {sorted(commits)}")
    with throwaway_database("docschat-bench-code-") as (url, _home):
        for report in asyncio.run(run(url, questions, commits.pop(), args.k, args.cache_home, args.embedding)):
            print(json.dumps(report))


if __name__ == "__main__":
    main()
