"""One JSON line per question: the chat's own turn (outcome, confidence and its parts) and how the
question's best cosine stands against the question's cosine to the whole corpus (session 37,
design/judgment.md: off-topic questions that share a programming word with the docs).

The baseline is question-independent in the sense that it does not depend on which section
matched: the mean and spread of the question's cosine over every visible section. A question on
the docs' topic should stand out of that spread at its best section; a general programming
question that matches on one common word should not. Nothing is stored.

    # on a synced home (DOCSCHAT_HOME and the docs settings as `docschat eval` reads them):
    python scripts/floor_baseline_evidence.py home eval/typer-docs.jsonl eval/offtopic-shared-words.jsonl
    # on a corpus of ../shared (a throwaway database, as scripts/bench_eval.py answers):
    python scripts/floor_baseline_evidence.py shared --corpus ray-docs --cache-home .docschat FILE...
"""

from __future__ import annotations

import json
import statistics
from typing import Any

import probe_judgment

from app.chat.services import ChatServices
from app.chat.turn import answer_question
from app.evaluation.answers import _parsed
from app.search.eval import EvalItem

COSINES_SQL = """
select s.page, 1 - (s.embedding operator(public.<=>) $1::public.vector) as cosine
from public.docs_section s
where s.embedding is not null and s.embedding_model = $2
  and ($3::text[] is null or s.audiences operator(pg_catalog.&&) $3::text[])
"""


async def cosine_spread(services: ChatServices, question: str, audiences: list[str] | None) -> dict[str, Any]:
    """The question's cosine to every visible section: mean, spread, the best's z-score, the ten best
    with their pages."""
    embedder = services.retriever.embedder
    if embedder is None:
        return {}
    pool = services.retriever.pool
    vector = await embedder.embed(pool, question)
    async with pool.acquire() as conn:
        rows = await conn.fetch(COSINES_SQL, vector, embedder.provider.model, audiences)
    if len(rows) < 2:
        return {}
    cosines = sorted(((float(r["cosine"]), r["page"]) for r in rows), reverse=True)
    values = [c for c, _ in cosines]
    mean, spread = statistics.fmean(values), statistics.pstdev(values)
    return {
        "sections": len(values), "mean_cosine": round(mean, 4), "cosine_sd": round(spread, 4),
        "best_z": round((values[0] - mean) / spread, 3) if spread else None,
        "top": [[round(c, 4), p] for c, p in cosines[:10]],
    }


async def probe(services: ChatServices, items: list[tuple[str, EvalItem]], audiences: list[str] | None) -> None:
    for name, item in items:
        turn = await answer_question(services, _parsed(item.question), [_parsed(q) for q in item.history], audiences)
        retrieval = turn.retrieval
        row: dict[str, Any] = {
            "file": name, "id": item.id, "split": item.split, "question": item.question,
            "kind": item.unanswerable or ("answerable" if item.answerable else "unanswerable"),
            "outcome": "error" if turn.outcome == "failed" else turn.outcome,
            "confidence": retrieval.confidence if retrieval is not None else None,
        }
        if retrieval is not None:
            row["explanation"] = retrieval.judgment.explanation
            row["legs"] = {leg: [[h.id, round(h.score, 4)] for h in hits[:3]] for leg, hits in retrieval.legs.items()}
            row |= await cosine_spread(services, retrieval.question, audiences)
        print(json.dumps(row, ensure_ascii=False), flush=True)


def main() -> None:
    probe_judgment.main(probe)  # its `home` and `shared` runs, this probe

if __name__ == "__main__":
    main()
