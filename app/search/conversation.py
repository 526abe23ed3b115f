"""Retrieval in a conversation: the chat turn, `docschat search --history` and eval lines with
"history" all search through `retrieve_in_conversation`, so they find the same pages.

The standalone query (app/search/standalone.py) proposes a completion; retrieval evidence decides:

- no earlier turn, or nothing to carry: the question as asked;
- a strong cue (continuation, ellipsis): the completed query, unless it finds nothing;
- otherwise the question alone first. A question that stands alone (the judgment says it would
  answer) is kept as asked, so a topic switch is never polluted; when it finds nothing, or less
  than the completed query by a margin (none for a question that refers back with "it"/"that"),
  the completed query wins.

With a rewriter (Gemini), one bounded rewrite is tried first; on failure, the offline method.
"""

from __future__ import annotations

from typing import Any, Protocol

from app.logging import get_logger
from app.search.retrieve import Retrieval, Retriever
from app.search.standalone import StandaloneQuery, standalone_query
from app.search.terms import words

log = get_logger(__name__)

# How much more evidence the completed query needs when nothing in the wording points back.
NO_CUE_MARGIN = 0.05


class QueryRewriter(Protocol):
    name: str

    async def rewrite(self, question: str, history: list[str]) -> str | None:
        """A standalone search query, or None (failure, timeout, nothing usable)."""
        ...


def evidence(retrieval: Retrieval) -> float:
    """How well a retrieval matched, comparable between two queries over the same index.

    The judgment's confidence when retrievals carry one (issue 10); before that the best cosine
    similarity of the vector leg; keyword-only, the share of the query's words found in the best
    page's title, heading and excerpt.
    """
    confidence = getattr(retrieval, "confidence", None)
    if isinstance(confidence, (int, float)):
        return float(confidence)
    if not retrieval.pages:
        return 0.0
    vector = retrieval.legs.get("vector")
    if vector:
        return 1.0 - vector[0].score
    best = retrieval.pages[0]
    asked = set(words(retrieval.question))
    found = set(words(f"{best.title} {best.heading} {best.excerpt}"))
    return len(asked & found) / len(asked) if asked else 0.0


def would_answer(retrieval: Retrieval) -> bool | None:
    """The judgment's verdict when retrievals carry one; None before issue 10 lands."""
    verdict = getattr(retrieval, "would_answer", None)
    return verdict if isinstance(verdict, bool) else None


def _record(retrieval: Retrieval, asked: str, method: str, proposal: StandaloneQuery | None,
            scores: dict[str, float] | None = None) -> Retrieval:
    info: dict[str, Any] = {"asked": asked, "query": retrieval.question, "method": method}
    if proposal is not None:
        info |= {"cue": proposal.cue, "carried": list(proposal.carried)}
    if scores:
        info["evidence"] = {k: round(v, 4) for k, v in scores.items()}
    retrieval.standalone = info
    return retrieval


async def retrieve_in_conversation(
    retriever: Retriever,
    question: str,
    history: list[str] | None = None,
    *,
    rewriter: QueryRewriter | None = None,
    **retrieve_options: Any,
) -> Retrieval:
    """The retrieval for the latest question of a conversation (`history`: earlier user questions,
    oldest first). `retrieve_options` go to every `Retriever.retrieve` call unchanged (mode,
    audiences): a completed query obeys the same rules as the question."""
    earlier = [h for h in history or [] if h and h.strip()]
    if not earlier:
        return _record(await retriever.retrieve(question, **retrieve_options), question, "as_asked", None)
    if rewriter is not None:
        rewritten = await rewriter.rewrite(question, earlier)
        if rewritten:
            retrieval = await retriever.retrieve(rewritten, **retrieve_options)
            if retrieval.pages:
                return _record(retrieval, question, f"rewritten:{rewriter.name}", None)
            log.info("query_rewrite_found_nothing")
    proposal = standalone_query(question, earlier)
    if not proposal.completed:
        return _record(await retriever.retrieve(question, **retrieve_options), question, "as_asked", proposal)
    if proposal.cue == "strong":
        completed = await retriever.retrieve(proposal.query, **retrieve_options)
        if completed.pages:
            return _record(completed, question, "completed", proposal)
        return _record(await retriever.retrieve(question, **retrieve_options), question, "as_asked", proposal)
    alone = await retriever.retrieve(question, **retrieve_options)
    if proposal.cue == "none" and would_answer(alone) is True:
        return _record(alone, question, "as_asked", proposal)
    completed = await retriever.retrieve(proposal.query, **retrieve_options)
    scores = {"as_asked": evidence(alone), "completed": evidence(completed)}
    margin = 0.0 if proposal.cue == "weak" else NO_CUE_MARGIN
    if completed.pages and (not alone.pages or scores["completed"] > scores["as_asked"] + margin):
        return _record(completed, question, "completed", proposal, scores)
    return _record(alone, question, "as_asked", proposal, scores)
