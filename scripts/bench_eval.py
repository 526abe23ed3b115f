"""Retrieval evaluation on a corpus of ../shared: one harness, three reports.

Each syncs ../shared/corpora/<corpus> (embeddings cached in --cache-home, so later runs are fast)
into a throwaway embedded Postgres, stopped and deleted afterwards (or into --database-url), then
scores an eval file with the code of `docschat eval`, and prints JSON lines.

    python scripts/bench_eval.py                # retrieval: claude-docs dev set, each mode
    python scripts/bench_eval.py judgment --corpus ray-docs --modes hybrid,keyword [--split heldout] [--dump]
    python scripts/bench_eval.py conversations --corpus mintlify-docs [--unseen] [--verbose]
    python scripts/bench_eval.py answers --corpus ray-docs [--dump]

- retrieval: recall, MRR and page recall of the dev set (default claude-docs) in each mode.
- judgment: refusal and false-refusal rates, with retrieval quality, on the dev set mixed with the
  unanswerable questions of tests/data/unanswerable.jsonl (gold: []; marked "offtopic") and the
  corpus's in-domain unanswerable questions (tests/data/unanswerable-indomain-{dev,heldout}.jsonl,
  marked "indomain"; --split says which third). One line per mode; with --dump, one line per
  question with the evidence the confidence was made from (for choosing defaults: look at the
  spread, never fit single questions).
- conversations: follow-up questions with and without their conversation: page recall@k by kind
  of line, of tests/data/conversations-<corpus>.jsonl (--unseen: conversations-unseen-<corpus>.jsonl,
  which no method was tuned on), each line searched with its "history" (as the chat does) and alone.
  Lines with "kind": "topic-switch" stand alone after an unrelated conversation: history must not
  hurt them. One line per (lines, history) pair.
- answers: the chat's answers scored against reference facts, as `docschat eval --answers` does,
  on eval/<corpus>.jsonl (claude-docs: the shared dev set with eval/claude-docs-dev.facts.jsonl).
  The answerer is the settings' (ANSWER_PROVIDER: extractive without a key). One line with the
  figures and each split's; with --dump, one line per question (outcome, summary, missing facts).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, cast

from _corpus import ROOT, SHARED, corpus_repo, throwaway_database

from app.config import Settings
from app.corpus.compose import DocsSource
from app.db.migrate import ensure_schema
from app.db.pool import create_pool
from app.embeddings.cache import EmbeddingCache, cache_path
from app.search.eval import EvalItem, evaluate, load_eval_file, load_facts_file
from app.search.retrieve import MODES, Retriever, build_retriever
from tests.helpers import sync_corpus

BASE_URLS = {"mintlify-docs": "https://mintlify.com/docs", "claude-docs": "https://docs.claude.com",
             "ray-docs": "https://docs.ray.io"}
OTHER_BASE_URL = "https://docs.example.com"  # a corpus without a question set: refusals only
UNANSWERABLE = ROOT / "tests" / "data" / "unanswerable.jsonl"
INDOMAIN = ROOT / "tests" / "data" / "unanswerable-indomain-{split}.jsonl"
DEFAULT_CORPUS = {"retrieval": "claude-docs", "judgment": "claude-docs", "conversations": "mintlify-docs",
                  "answers": "mintlify-docs"}
DEFAULT_MODES = {"retrieval": ",".join(MODES), "judgment": "hybrid", "conversations": "hybrid", "answers": "hybrid"}


@asynccontextmanager
async def indexed(url: str, repo: Path, args: argparse.Namespace) -> AsyncIterator[Retriever]:
    """A retriever over the corpus synced into `url`, as `docschat eval` searches."""
    await ensure_schema(url)
    settings = Settings(embedding_provider=args.provider, docs_url_prefix="", docs_base_url=args.base_url,
                        docs_dir="docs")
    pool = await create_pool(url, max_size=4)
    cache = EmbeddingCache(cache_path(args.cache_home))
    try:
        retriever = build_retriever(pool, settings)
        provider = retriever.embedder.provider if retriever.embedder else None
        if args.report in ("judgment", "answers"):
            await retriever.warm_up()
        await sync_corpus(pool, DocsSource(repo, "main", "docs"), settings, provider, cache=cache, wait_for_lock=True)
        if args.report == "conversations" and retriever.embedder is not None:  # loaded before a question is timed
            await retriever.embedder.embed(pool, "warm up")
        yield retriever
    finally:
        cache.close()
        await pool.close()


async def retrieval(retriever: Retriever, args: argparse.Namespace) -> None:
    items = load_eval_file(args.questions)
    for mode in args.modes.split(","):
        report = await evaluate(retriever, items, mode=mode, k=args.k, base_url=args.base_url)
        report.pop("per_question")
        print(json.dumps(report), flush=True)


def mixed_lines(args: argparse.Namespace) -> Path:
    """One eval file: the dev set (if any), the corpus's in-domain unanswerable lines of the
    chosen split(s), and the off-topic set, each unanswerable line marked with its kind."""
    lines: list[dict[str, Any]] = []
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


async def judgment(retriever: Retriever, args: argparse.Namespace) -> None:
    mixed = mixed_lines(args)
    items = load_eval_file(mixed)
    mixed.unlink()
    for mode in args.modes.split(","):
        report = await evaluate(retriever, items, mode=mode, k=args.k, base_url=args.base_url)
        per_question = report.pop("per_question")
        print(json.dumps({"corpus": args.corpus, **report}), flush=True)
        if args.dump:
            await _dump(retriever, items, per_question, mode)


async def _dump(retriever: Retriever, items: list[EvalItem], per_question: Any, mode: str) -> None:
    for item, result in zip(items, per_question, strict=True):
        retrieval = await retriever.retrieve(item.question, mode=mode)  # type: ignore[arg-type]
        print(json.dumps({
            "mode": mode, "answerable": item.answerable, "question": item.question[:80],
            "recall": result.get("recall"), "confidence": retrieval.confidence,
            "would_answer": retrieval.would_answer, **retrieval.judgment.explanation,
        }), flush=True)


async def conversations(retriever: Retriever, args: argparse.Namespace) -> None:
    items = load_eval_file(args.questions)
    raw = [json.loads(line) for line in args.questions.read_text(encoding="utf-8").splitlines() if line.strip()]
    kinds = {"follow-up": [i for i, line in enumerate(raw) if line.get("kind") != "topic-switch"],
             "topic-switch": [i for i, line in enumerate(raw) if line.get("kind") == "topic-switch"]}
    for mode in args.modes.split(","):
        for use_history in (True, False):
            report = await evaluate(retriever, items, mode=mode, k=args.k, base_url=args.base_url,
                                    use_history=use_history)
            per_question = cast(list[dict[str, Any]], report["per_question"])
            if args.verbose:
                for q in per_question:
                    print(json.dumps({"history": use_history, "id": q["id"], "page_recall": q.get("page_recall"),
                                      "query": q["query"], "retrieved": q["retrieved"]}), file=sys.stderr)
            for kind, indexes in kinds.items():
                if not indexes:
                    continue
                lines = [per_question[i] for i in indexes]
                chosen = [q for q in lines if "page_recall" in q]  # answerable: scored by their gold
                off = [q for q in lines if "page_recall" not in q]  # no gold: they should be refused
                print(json.dumps({
                    "lines": kind, "history": use_history, "questions": len(chosen), "mode": mode, "k": args.k,
                    "page_recall": round(sum(q["page_recall"] for q in chosen) / max(len(chosen), 1), 4),
                    "section_recall": round(sum(q["recall"] for q in chosen) / max(len(chosen), 1), 4),
                    "mrr": round(sum(q["mrr"] for q in chosen) / max(len(chosen), 1), 4),
                    "completed": sum(1 for q in chosen if q["query"] != q["question"]),
                    "unanswerable": len(off), "unanswerable_refused": sum(1 for q in off if not q["would_answer"]),
                }), flush=True)


async def answers(retriever: Retriever, args: argparse.Namespace) -> None:
    from app.chat.services import build_chat_services
    from app.evaluation.answers import evaluate_answers

    items = load_eval_file(args.questions)
    if args.facts is not None:
        items = load_facts_file(args.facts, items)
    # The chat's services on the synced database and the eval's settings (the model is loaded once).
    services = build_chat_services(retriever.pool, retriever.settings)
    report = await evaluate_answers(services, items)
    per_question = report.pop("per_question")
    print(json.dumps({"corpus": args.corpus, "questions_file": args.questions.name, **report}), flush=True)
    if args.dump:
        for row in per_question:
            print(json.dumps(row, ensure_ascii=False), flush=True)


REPORTS = {"retrieval": retrieval, "judgment": judgment, "conversations": conversations, "answers": answers}


async def run(url: str, repo: Path, args: argparse.Namespace) -> None:
    async with indexed(url, repo, args) as retriever:
        await REPORTS[args.report](retriever, args)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("report", nargs="?", default="retrieval", choices=sorted(REPORTS))
    parser.add_argument("--corpus", default=None, help="a folder of <shared>/corpora (default: the report's)")
    parser.add_argument("--questions", type=Path, default=None,
                        help="default: <shared>/eval/<corpus>-dev.jsonl; conversations: "
                             "tests/data/conversations-<corpus>.jsonl")
    parser.add_argument("--shared", type=Path, default=SHARED, help="the shared folder (corpora/, eval/)")
    parser.add_argument("--modes", default=None, help="comma-separated: hybrid,keyword,vector (default: the report's)")
    parser.add_argument("--provider", default="local", choices=["local", "none"])
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--cache-home", type=Path, default=Path(".docschat"))
    parser.add_argument("--database-url", default=None, help="sync into and search this database instead")
    judgment_options = parser.add_argument_group("judgment")
    judgment_options.add_argument("--unanswerable", type=Path, default=UNANSWERABLE)
    judgment_options.add_argument("--split", default="dev", choices=["dev", "heldout", "both"],
                                  help="which third of the in-domain unanswerable set (tune on dev; report heldout)")
    judgment_options.add_argument("--dump", action="store_true",
                                  help="one line per question (judgment: its evidence; answers: its row)")
    conversation_options = parser.add_argument_group("conversations")
    conversation_options.add_argument("--unseen", action="store_true",
                                      help="tests/data/conversations-unseen-<corpus>.jsonl, written for issue 31, "
                                           "which no method was tuned on")
    conversation_options.add_argument("--verbose", action="store_true", help="every line's query and pages on stderr")
    answer_options = parser.add_argument_group("answers")
    answer_options.add_argument("--facts", type=Path, default=None,
                                help='{"id", "facts"} lines for the questions (default for claude-docs: '
                                     "eval/claude-docs-dev.facts.jsonl)")
    args = parser.parse_args()
    args.corpus = args.corpus or DEFAULT_CORPUS[args.report]
    args.modes = args.modes or DEFAULT_MODES[args.report]
    args.base_url = BASE_URLS.get(args.corpus, OTHER_BASE_URL)
    if args.questions is None and args.report == "conversations":
        name = f"conversations-{'unseen-' if args.unseen else ''}{args.corpus.split('-')[0]}.jsonl"
        args.questions = ROOT / "tests" / "data" / name
    elif args.questions is None and args.report == "answers" and (ROOT / "eval" / f"{args.corpus}.jsonl").exists():
        args.questions = ROOT / "eval" / f"{args.corpus}.jsonl"
    elif args.questions is None:
        args.questions = args.shared / "eval" / f"{args.corpus}-dev.jsonl"
    if args.report == "answers" and args.facts is None and (ROOT / "eval" / f"{args.corpus}-dev.facts.jsonl").exists() \
            and args.questions.name == f"{args.corpus}-dev.jsonl":
        args.facts = ROOT / "eval" / f"{args.corpus}-dev.facts.jsonl"
    return args


def main() -> None:
    args = parse_args()
    repo = corpus_repo(args.corpus, args.shared)
    try:
        if args.database_url:
            asyncio.run(run(args.database_url, repo, args))
        else:
            with throwaway_database(f"docschat-bench-{args.report}-") as (url, _home):
                asyncio.run(run(url, repo, args))
    finally:
        shutil.rmtree(repo, ignore_errors=True)


if __name__ == "__main__":
    main()
