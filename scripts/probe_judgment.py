"""One JSON line per question with the evidence the judgment read: the chat's own turn on each line
of one or more eval files (`docschat eval --answers`'s path), with the confidence's parts, the
answer check's record, each leg's best hits, the Summary, the question's terms (lexeme, sections
holding it, idf), each Summary line's stems, and the words no visible section holds (whether the
typo step takes each for a typo, and the stems one edit away with the sections holding each). For measuring judgment rules on questions no rule
was tuned on (design/judgment.md, sessions 33 and 34); nothing is stored.

    # on a synced home (DOCSCHAT_HOME and the docs settings as `docschat eval` reads them):
    python scripts/probe_judgment.py home eval/typer-docs.jsonl tests/data/offtopic-programming.jsonl
    # on a corpus of ../shared (a throwaway database, as scripts/bench_eval.py answers):
    python scripts/probe_judgment.py shared --corpus ray-docs --cache-home .docschat FILE...
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import bench_eval

from app.chat.services import ChatServices, build_chat_services
from app.chat.turn import answer_question
from app.evaluation.answers import _parsed
from app.judge.answer_check import MIN_TYPO_LENGTH, SENTENCE_STEMS_SQL, TERMS_SQL, UNKNOWN_SQL
from app.search.eval import EvalItem, load_eval_file
from app.search.retrieve import Retriever
from app.text import storable_text


def _items(paths: list[Path]) -> list[tuple[str, EvalItem]]:
    """(file name, line) for every line of the files; an off-topic line of unanswerable.jsonl is
    marked as such (it says `"kind": "off-topic"`)."""
    items = []
    for path in paths:
        raw = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        for line, item in zip(raw, load_eval_file(path), strict=True):
            if line.get("kind") == "off-topic" and item.unanswerable is None:
                item = EvalItem(**{**item.__dict__, "unanswerable": "offtopic"})
            items.append((path.name, item))
    return items


# Each stem one edit from an unknown word's stem, with the sections holding it (session 35: what the
# typo step takes the word for).
NEIGHBOURS_SQL = """
select c.lexeme, sum(c.ndoc)::int as ndoc
from public.docs_lexeme_stats c
where (pg_catalog.left(c.lexeme, 2) = pg_catalog.left($1, 2) or pg_catalog.right(c.lexeme, 2) = pg_catalog.right($1, 2))
  and pg_catalog.abs(pg_catalog.length(c.lexeme) - pg_catalog.length($1)) <= 1
  and ($2::text[] is null or c.audiences operator(pg_catalog.&&) $2::text[])
  and public.docs_one_edit_apart(c.lexeme, $1)
group by c.lexeme
order by sum(c.ndoc) desc, c.lexeme
"""


async def stems(services: ChatServices, question: str, summary: str, audiences: list[str] | None) -> dict[str, Any]:
    """The question's terms as the check reads them (lexeme, sections holding it, idf) and the
    stems of each line of the Summary (session 34: word evidence on the quoted answer)."""
    async with services.retriever.pool.acquire() as conn:
        terms = await conn.fetch(TERMS_SQL, storable_text(question), [], audiences)
        lines = [x for x in summary.split("\n") if x.strip()]
        rows = await conn.fetch(SENTENCE_STEMS_SQL, lines) if lines else []
        unknown = []
        for r in await conn.fetch(UNKNOWN_SQL, storable_text(question), audiences, MIN_TYPO_LENGTH):
            near = await conn.fetch(NEIGHBOURS_SQL, r["lexeme"], audiences) if r["typo"] else []
            unknown.append([r["word"], int(r["n"]), r["lexeme"], bool(r["typo"]),
                            [[x["lexeme"], int(x["ndoc"])] for x in near]])
        search_text = await conn.fetchval(
            "select public.docs_search_text(public.docs_identifier_words($1), $2)", storable_text(question), audiences)
    return {"terms": [[r["lexeme"], int(r["ndoc"]), round(float(r["idf"]), 4)] for r in terms],
            "unknown": unknown, "search_text": search_text,
            "summary_stems": [list(r["lexemes"]) for r in rows]}


async def probe(services: ChatServices, items: list[tuple[str, EvalItem]], audiences: list[str] | None) -> None:
    for name, item in items:
        reply_retrieval: dict[str, Any] = {}
        turn = await answer_question(services, _parsed(item.question), [_parsed(q) for q in item.history], audiences)
        retrieval = turn.retrieval
        if retrieval is not None:
            reply_retrieval = {
                "explanation": retrieval.judgment.explanation,
                "legs": {leg: [[h.id, round(h.score, 4)] for h in hits[:3]] for leg, hits in retrieval.legs.items()},
                **await stems(services, retrieval.question, turn.summary or "", audiences),
            }
        print(json.dumps({
            "file": name, "id": item.id, "question": item.question,
            "kind": item.unanswerable or ("answerable" if item.answerable else "unanswerable"),
            "outcome": "error" if turn.outcome == "failed" else turn.outcome,
            "confidence": retrieval.confidence if retrieval is not None else None, "summary": turn.summary,
            "facts": list(item.facts), **reply_retrieval,
        }, ensure_ascii=False), flush=True)


Probe = Callable[[ChatServices, list[tuple[str, EvalItem]], list[str] | None], Awaitable[None]]


async def on_home(paths: list[Path], run: Probe) -> None:
    from app.cli.base import database_url, open_read_pool
    from app.config import get_settings

    settings = get_settings()
    async with await open_read_pool(database_url()) as pool:
        services = build_chat_services(pool, settings)
        await services.retriever.warm_up()
        await run(services, _items(paths), settings.anonymous_audiences)


def main(run: Probe = probe) -> None:
    """`home FILE...` on a synced home, or `shared --corpus C --cache-home DIR FILE...`: `run` on
    each file's questions (scripts/floor_baseline_evidence.py runs its own)."""
    if sys.argv[1:2] == ["home"]:
        asyncio.run(on_home([Path(p) for p in sys.argv[2:]], run))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("where", choices=["shared"])
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--cache-home", type=Path, required=True)
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    paths = args.files

    async def report(retriever: Retriever, args: argparse.Namespace) -> None:
        services = build_chat_services(retriever.pool, retriever.settings)
        await run(services, _items(paths), None)

    bench_eval.REPORTS["answers"] = report  # its database and warm-up, this report
    sys.argv = [sys.argv[0], "answers", "--corpus", args.corpus, "--cache-home", str(args.cache_home)]
    bench_eval.main()

if __name__ == "__main__":
    main()
