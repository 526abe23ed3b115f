"""Judgment: refusal and false-refusal rates, with retrieval quality, on a dev set mixed with
the unanswerable questions of tests/data/unanswerable.jsonl (gold: []; marked "offtopic") and the
corpus's in-domain unanswerable questions (tests/data/unanswerable-indomain-{dev,heldout}.jsonl,
marked "indomain"; --split says which third). The report gives the refusal rate of each kind.

Syncs ../shared/corpora/<corpus> (embeddings cached in --cache-home, so later runs are fast) into a
throwaway embedded database, or into --database-url when given, then runs `docschat eval`'s
evaluation on the mixed set in each mode asked for. Prints one JSON line per mode; with --dump, one
line per question with the evidence the confidence was made from (for choosing defaults: look at
the spread, never fit single questions).

    python scripts/bench_judgment.py --corpus claude-docs
    python scripts/bench_judgment.py --corpus ray-docs --modes hybrid,keyword
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import tempfile
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

BASE_URLS = {"claude-docs": "https://docs.claude.com", "ray-docs": "https://docs.ray.io"}
OTHER_BASE_URL = "https://docs.example.com"  # a corpus without a question set: refusals only
UNANSWERABLE = ROOT / "tests" / "data" / "unanswerable.jsonl"
INDOMAIN = ROOT / "tests" / "data" / "unanswerable-indomain-{split}.jsonl"


def mixed_lines(args: argparse.Namespace) -> Path:
    """One eval file: the dev set (if any), the corpus's in-domain unanswerable lines of the
    chosen split(s), and the off-topic set, each unanswerable line marked with its kind."""
    lines: list[dict] = []
    if args.questions.exists():
        lines += [json.loads(x) for x in args.questions.read_text().splitlines() if x.strip()]
    corpus = args.corpus.removesuffix("-docs")
    for split in ("dev", "heldout") if args.split == "both" else (args.split,):
        path = Path(str(INDOMAIN).format(split=split))
        lines += [x for x in (json.loads(y) for y in path.read_text().splitlines() if y.strip())
                  if x["corpus"] == corpus]
    lines += [{**json.loads(x), "unanswerable": "offtopic"} for x in args.unanswerable.read_text().splitlines()
              if x.strip()]
    out = Path(tempfile.mkstemp(prefix="docschat-judgment-", suffix=".jsonl")[1])
    out.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return out


async def run(url: str, args: argparse.Namespace, repo: Path) -> None:
    await ensure_schema(url)
    base_url = BASE_URLS.get(args.corpus, OTHER_BASE_URL)
    settings = Settings(embedding_provider=args.provider, docs_url_prefix="", docs_base_url=base_url, docs_dir="docs")
    pool = await create_pool(url, max_size=4)
    cache = EmbeddingCache(cache_path(args.cache_home))
    try:
        retriever = build_retriever(pool, settings)
        provider = retriever.embedder.provider if retriever.embedder else None
        await retriever.warm_up()
        await sync_corpus(pool, DocsSource(repo, "main", "docs"), settings, provider, cache=cache, wait_for_lock=True)
        mixed = mixed_lines(args)
        items = load_eval_file(mixed)
        mixed.unlink()
        for mode in args.modes.split(","):
            report = await evaluate(retriever, items, mode=mode, k=args.k, base_url=base_url)  # type: ignore[arg-type]
            per_question = report.pop("per_question")
            print(json.dumps({"corpus": args.corpus, **report}), flush=True)
            if args.dump:
                for item, result in zip(items, per_question, strict=True):  # type: ignore[arg-type]
                    retrieval = await retriever.retrieve(item.question, mode=mode)  # type: ignore[arg-type]
                    print(json.dumps({
                        "mode": mode, "answerable": item.answerable, "question": item.question[:80],
                        "recall": result.get("recall"), "confidence": retrieval.confidence,
                        "would_answer": retrieval.would_answer, **retrieval.judgment.explanation,
                    }), flush=True)
    finally:
        cache.close()
        await pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default="claude-docs", help="a folder of <shared>/corpora")
    parser.add_argument("--questions", type=Path, default=None,
                        help="default: <shared>/eval/<corpus>-dev.jsonl; without one, the unanswerable set alone")
    parser.add_argument("--unanswerable", type=Path, default=UNANSWERABLE)
    parser.add_argument("--split", default="dev", choices=["dev", "heldout", "both"],
                        help="which third of the in-domain unanswerable set (tune on dev; report heldout)")
    parser.add_argument("--shared", type=Path, default=SHARED, help="the shared folder (corpora/, eval/)")
    parser.add_argument("--modes", default="hybrid", help="comma-separated: hybrid,keyword,vector")
    parser.add_argument("--provider", default="local", choices=["local", "none"])
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--cache-home", type=Path, default=Path(".docschat"))
    parser.add_argument("--database-url", default=None, help="sync into and search this database instead")
    parser.add_argument("--dump", action="store_true", help="one line of evidence per question")
    args = parser.parse_args()
    if args.questions is None:
        args.questions = args.shared / "eval" / f"{args.corpus}-dev.jsonl"
    source = args.shared / "corpora" / args.corpus
    if args.shared != SHARED:
        repo = Path(tempfile.mkdtemp(prefix="docschat-bench-"))
        shutil.rmtree(repo)
        from tests.helpers import copy_tree_as_repo

        copy_tree_as_repo(source, repo)
    else:
        repo = corpus_repo(args.corpus)
    try:
        if args.database_url:
            asyncio.run(run(args.database_url, args, repo))
        else:
            with throwaway_database("docschat-bench-judgment-") as (url, _home):
                asyncio.run(run(url, args, repo))
    finally:
        shutil.rmtree(repo, ignore_errors=True)


if __name__ == "__main__":
    main()
