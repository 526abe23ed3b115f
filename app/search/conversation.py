"""Retrieval in a conversation: the chat turn, `docschat search --history` and eval lines with
"history" all search through `retrieve_in_conversation`, so they find the same pages.

The standalone query (app/search/standalone.py) proposes a completion; retrieval evidence decides:

- no earlier turn, or nothing to carry: the question as asked;
- a question with nothing pointing back (no pronoun or demonstrative, no "and …", not elliptic):
  the question as asked, whatever came before ("Is my IP address stored?" after a question on
  Claude Desktop is searched, answered and stored as a gap in its own words);
- otherwise both the question alone and the completed query are searched, and the one with more
  evidence wins, with a margin by cue: an ellipsis keeps the completion unless the question alone
  is clearly better; "and …" or "it"/"that" needs it merely better, so a topic switch ("And how
  do I connect Google Analytics?") is not polluted. Without comparable evidence (keyword-only),
  the wording alone decides.

Whatever query wins, the answer check (app/judge/answer_check.py) then asks whether its sections
hold the question's specific terms; its verdict ("answerable" or "partly": it never refuses) is
kept in the judgment's explanation.

With a rewriter (Gemini), one bounded rewrite is tried first; on failure, the offline method.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

import asyncpg

from app.judge.answer_check import CHECK_SECTIONS, AnswerCheck, check_answer, with_check
from app.logging import get_logger
from app.search.retrieve import Retrieval, Retriever
from app.search.standalone import StandaloneQuery, standalone_query

log = get_logger(__name__)

# How much more evidence the completed query needs than the question alone, by cue: an elliptic
# question is completed unless the question alone is clearly better; one that opens with "and" or
# refers back needs the completion merely better ("And how do I connect Google Analytics?" opens a
# new topic). A question with nothing pointing back is never completed.
CUE_MARGINS: dict[str, float] = {"strong": -0.05, "weak": 0.0}


class QueryRewriter(Protocol):
    name: str

    async def rewrite(self, question: str, history: list[str]) -> str | None:
        """A standalone search query, or None (failure, timeout, nothing usable)."""
        ...


def evidence(retrieval: Retrieval) -> float | None:
    """How well a retrieval matched, comparable between two queries over the same index: the best
    cosine similarity of the vector leg; None without one.

    Not the judgment's confidence: its term coverage (the share of the query's words the best
    section holds) favours the shorter query, so the question alone would beat its completion for
    the very reason it is incomplete. Keyword-only there is nothing comparable for the same reason.
    """
    if not retrieval.pages:
        return 0.0
    vector = retrieval.legs.get("vector")
    return 1.0 - vector[0].score if vector else None


def answer_check_of(retrieval: Retrieval) -> AnswerCheck | None:
    """The answer check's verdict on this retrieval; None when it did not run."""
    check = getattr(retrieval, "answer_check", None)
    return check if isinstance(check, AnswerCheck) else None


async def apply_answer_check(retriever: Retriever, retrieval: Retrieval) -> Retrieval:
    """Run the offline answer check on a retrieval the judgment would answer (ANSWER_CHECK=on):
    its verdict is recorded; a failure of the check leaves the judgment as it was (logged)."""
    if not retrieval.would_answer or not getattr(retriever.settings, "answer_check", True) or not retrieval.ranking:
        return retrieval
    sections: list[tuple[str, str]] = []
    for fused in retrieval.ranking:
        if fused.hit.id not in {s[0] for s in sections}:
            sections.append((fused.hit.id, f"{fused.hit.title}\n{fused.hit.heading}\n{fused.hit.content}"))
        if len(sections) == CHECK_SECTIONS:
            break
    try:
        async with retriever.pool.acquire() as conn:
            check = await check_answer(conn, retrieval.question, sections, retrieval.audiences)
    except (asyncpg.PostgresError, OSError) as exc:
        log.warning("answer_check_failed", error=type(exc).__name__)
        return retrieval
    retrieval.answer_check = check  # type: ignore[attr-defined]
    retrieval.judgment = with_check(retrieval.judgment, check)
    return retrieval


def _record(retrieval: Retrieval, asked: str, method: str, proposal: StandaloneQuery | None,
            scores: dict[str, float | None] | None = None) -> Retrieval:
    info: dict[str, Any] = {"asked": asked, "query": retrieval.question, "method": method}
    if proposal is not None:
        info |= {"cue": proposal.cue, "carried": list(proposal.carried)}
    if scores:
        info["evidence"] = {k: None if v is None else round(v, 4) for k, v in scores.items()}
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
    oldest first), with the answer check applied. `retrieve_options` go to every
    `Retriever.retrieve` call unchanged (mode, audiences): a completed query obeys the same rules
    as the question."""
    retrieval = await _choose_query(retriever, question, history, rewriter=rewriter, **retrieve_options)
    return await apply_answer_check(retriever, retrieval)


async def _choose_query(
    retriever: Retriever,
    question: str,
    history: list[str] | None = None,
    *,
    rewriter: QueryRewriter | None = None,
    **retrieve_options: Any,
) -> Retrieval:
    earlier = [h for h in history or [] if h and h.strip()]
    if not earlier:
        return _record(await retriever.retrieve(question, **retrieve_options), question, "as_asked", None)
    proposal = standalone_query(question, earlier)
    if proposal.cue == "none":
        # Nothing points back: the question is searched exactly as asked, whatever came before, and
        # no model rewrites it (a completion scored on evidence once answered "Is my IP address
        # stored?" with words of an earlier question on Claude Desktop, and stored that as the gap).
        return _record(await retriever.retrieve(question, **retrieve_options), question, "as_asked", proposal)
    if rewriter is not None:
        rewritten = await rewriter.rewrite(question, earlier)
        if rewritten:
            retrieval = await retriever.retrieve(rewritten, **retrieve_options)
            if retrieval.pages:
                return _record(retrieval, question, f"rewritten:{rewriter.name}", None)
            log.info("query_rewrite_found_nothing")
    if not proposal.completed:
        return _record(await retriever.retrieve(question, **retrieve_options), question, "as_asked", proposal)
    alone, completed = await asyncio.gather(
        retriever.retrieve(question, **retrieve_options), retriever.retrieve(proposal.query, **retrieve_options)
    )
    scores = {"as_asked": evidence(alone), "completed": evidence(completed)}
    before, after = scores["as_asked"], scores["completed"]
    if not completed.pages:
        prefer_completed = False
    elif not alone.pages:
        prefer_completed = True
    elif before is None or after is None or alone.degraded != completed.degraded:
        # No comparable evidence (keyword-only, or one search lost a leg): the wording decides, and
        # it points back (a question with nothing pointing back was searched as asked above).
        prefer_completed = True
    else:
        prefer_completed = after > before + CUE_MARGINS[proposal.cue]
    if prefer_completed:
        return _record(completed, question, "completed", proposal, scores)
    return _record(alone, question, "as_asked", proposal, scores)
