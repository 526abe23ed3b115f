"""Answer-level evaluation: the chat's own turn on each question, its Summary scored against the
question's reference facts (`docschat eval FILE --answers`).

Each question is asked as the chat's own turn (app/chat/turn.py answer_question, after its
`history` of earlier questions, if any), with the services the chat builds from the settings: the
same retrieval, judgment and answerer as the chat route and `docschat ask`. Nothing is stored and
no gap is recorded: an evaluation leaves the operator's tables as they were.

Per question, the outcome is what the visitor would have seen:
- "refused": the docs-do-not-cover reply (below the answer floor, a model verifier's "not"), or
  nothing found to answer from;
- "partly": an answer carrying the line that names what the docs do not cover;
- "answered": an answer;
- "error": the turn failed (search or answerer unavailable).
An answerable question with facts "states the fact" when its Summary, refused or not, matches
every one of them (`fact_missing`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.chat.requests import BadChatRequest, parse_question
from app.chat.turn import ChatServices, answer_question
from app.search.eval import UNANSWERABLE_KINDS, EvalItem
from app.search.urls import normalize_url

OUTCOMES = ("answered", "partly", "refused", "error")
_CITATION = re.compile(r"\[\d+\]")
_MARKUP = re.compile(r"[`*]")
_CODE = re.compile(r"(```.*?```|`[^`\n]*`)", re.DOTALL)  # a fence, or a code span
# A link reads as its text: its target is no statement of the answer (a pattern `minif` matched
# `vite.dev/…#build-minify` in a paragraph naming no fix: typeorm-09, design/answer-eval.md).
_LINK = re.compile(r"\[([^\]]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+\"[^\"]*\")?\)")


def summary_for_facts(summary: str) -> str:
    """The Summary as facts are matched against it: citation marks ([1]), links' targets and
    Markdown's backticks and asterisks (not a code's own) removed, whitespace collapsed (so
    "`ANSWER_FLOOR` (default **0.45**) [2]" reads "ANSWER_FLOOR (default 0.45)", "[the
    guide](/docs/x#y)" reads "the guide")."""
    text = _LINK.sub(r"\1", _CITATION.sub("", summary))
    # Asterisks inside code are the code's ("`CPU * 2`", Flask's gunicorn workers): only the
    # backticks go there (session 35: a fact quoting them could not match).
    parts = _CODE.split(text)
    return " ".join("".join(part.replace("`", "") if n % 2 else _MARKUP.sub("", part)
                            for n, part in enumerate(parts)).split())


def fact_missing(summary: str, facts: tuple[str, ...]) -> list[str]:
    """The facts (regular expressions, case-insensitive) the Summary does not match; [] when it
    states them all."""
    text = summary_for_facts(summary)
    return [fact for fact in facts if not re.search(fact, text, re.IGNORECASE)]


async def evaluate_answers(
    services: ChatServices, items: list[EvalItem], *, audiences: list[str] | None = None,
    use_history: bool = True, progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """The answer report of `items` (see `summarize`), with one row per question."""
    rows: list[dict[str, Any]] = []
    if progress is not None:
        progress(0, len(items))
    for number, item in enumerate(items, start=1):
        rows.append(await _evaluate_one(services, item, audiences, use_history))
        if progress is not None:
            progress(number, len(items))
    return {"answerer": services.answerer.name, **summarize(rows), **({"by_split": by_split} if (by_split := _by_split(rows)) else {}),
            "per_question": rows}


@dataclass(frozen=True)
class Reply:
    """What the evaluation reads of one chat answer."""

    summary: str
    outcome: str  # one of OUTCOMES
    guides: list[str]  # the Relevant Guides' URLs, in order
    confidence: float | None
    error: str | None = None


async def chat_reply(
    services: ChatServices, question: str, history: list[str], audiences: list[str] | None
) -> Reply:
    """The chat's answer to `question` after the earlier questions `history`: the only function of
    this module that runs the chat, through the chat's own turn (app/chat/turn.py answer_question);
    nothing is stored, no gap recorded."""
    answer = await answer_question(services, _parsed(question), [_parsed(q) for q in history], audiences)
    failed = answer.outcome == "failed"
    return Reply(answer.summary, "error" if failed else answer.outcome, [str(s["url"]) for s in answer.sources],
                 answer.retrieval.confidence if answer.retrieval is not None else None,
                 "the turn failed (search or the answerer)" if failed else None)


async def _evaluate_one(
    services: ChatServices, item: EvalItem, audiences: list[str] | None, use_history: bool
) -> dict[str, Any]:
    answer = await chat_reply(services, item.question, list(item.history) if use_history else [], audiences)
    row: dict[str, Any] = {
        "id": item.id, "question": item.question, "split": item.split,
        "kind": item.unanswerable or ("answerable" if item.answerable else "unanswerable"),
        "outcome": answer.outcome, "summary": answer.summary, "guides": answer.guides,
        "confidence": answer.confidence,
    }
    if answer.error is not None:
        row["error"] = answer.error
    if item.answerable:
        gold_pages = {g.split("#", 1)[0] for g in item.gold}
        row["gold_page_listed"] = any(normalize_url(url).split("#", 1)[0] in gold_pages for url in answer.guides)
    if item.facts:
        missing = fact_missing(answer.summary, item.facts)
        row |= {"facts": list(item.facts), "states_fact": not missing, "missing": missing}
    return row


def _parsed(question: str) -> str:
    """The question as the chat route takes it (clipped); one the route would reject is asked as is."""
    try:
        return parse_question(question)
    except BadChatRequest:
        return question


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of a report over `rows`:
    - fact_rate: the share of answerable questions with facts whose Summary states them all, and
      fact_rate_95, its 95% interval (a set of 20 questions cannot tell 0.55 from 0.70);
    - answerable: outcome shares (false refusals are answerable questions refused);
    - by kind of unanswerable question (offtopic, indomain, or unmarked): refused, partly, and the
      share refused or answered partly;
    - errors: turns that failed."""
    answerable = [r for r in rows if r["kind"] == "answerable"]
    with_facts = [r for r in answerable if "states_fact" in r]
    report: dict[str, Any] = {
        "questions": len(rows), "answerable": len(answerable), "with_facts": len(with_facts),
        "states_fact": sum(r["states_fact"] for r in with_facts),
        "fact_rate": _share(sum(r["states_fact"] for r in with_facts), len(with_facts)),
        "fact_rate_95": wilson_interval(sum(r["states_fact"] for r in with_facts), len(with_facts)),
        "false_refusal_rate": _share(_count(answerable, "refused"), len(answerable)),
        "partly_rate": _share(_count(answerable, "partly"), len(answerable)),
        "gold_page_rate": _share(sum(bool(r.get("gold_page_listed")) for r in answerable), len(answerable)),
        "errors": _count(rows, "error"),
    }
    kinds: dict[str, Any] = {}
    for kind in (*UNANSWERABLE_KINDS, "unanswerable"):
        group = [r for r in rows if r["kind"] == kind]
        if group:
            refused, partly = _count(group, "refused"), _count(group, "partly")
            kinds[kind] = {"questions": len(group), "refused": refused, "partly": partly,
                           "refused_or_partly_rate": _share(refused + partly, len(group))}
    if kinds:
        report["unanswerable_by_kind"] = kinds
    return report


def _by_split(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """`summarize` of each split the file names (empty when it names none)."""
    splits = sorted({r["split"] for r in rows if r["split"] is not None})
    return {split: summarize([r for r in rows if r["split"] == split]) for split in splits}


def _count(rows: list[dict[str, Any]], outcome: str) -> int:
    return sum(1 for r in rows if r["outcome"] == outcome)


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def wilson_interval(part: int, whole: int, z: float = 1.96) -> list[float] | None:
    """The Wilson score interval of a share `part`/`whole` (95% by default): the spread a figure
    from this many questions carries, sound at 0 and at 1 where the normal approximation is not."""
    if not whole:
        return None
    share = part / whole
    centre = (share + z * z / (2 * whole)) / (1 + z * z / whole)
    half = z * math.sqrt(share * (1 - share) / whole + z * z / (4 * whole * whole)) / (1 + z * z / whole)
    return [round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3)]
