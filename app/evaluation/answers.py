"""Answer-level evaluation: the chat's own turn on each question, its Summary scored against the
question's reference facts (`docschat eval FILE --answers`).

Each question is asked as a chat turn in a fresh session (its `history`, if any, asked first in
the same session), with the services the chat builds from the settings: the same retrieval,
judgment and answerer as the chat route and `docschat ask`. The sessions are deleted afterwards and
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
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.chat.answerers import NOT_COVERED, NOT_FOUND
from app.chat.requests import BadChatRequest, parse_question
from app.chat.sessions import add_message, delete_session
from app.chat.turn import ChatServices, ChatTurn, start_turn
from app.search.eval import UNANSWERABLE_KINDS, EvalItem
from app.search.urls import normalize_url

OUTCOMES = ("answered", "partly", "refused", "error")
_CITATION = re.compile(r"\[\d+\]")
_MARKUP = re.compile(r"[`*]")


def summary_for_facts(summary: str) -> str:
    """The Summary as facts are matched against it: citation marks ([1]) and Markdown's backticks
    and asterisks removed, whitespace collapsed (so "`ANSWER_FLOOR` (default **0.45**) [2]" reads
    "ANSWER_FLOOR (default 0.45)")."""
    return " ".join(_MARKUP.sub("", _CITATION.sub("", summary)).split())


def fact_missing(summary: str, facts: tuple[str, ...]) -> list[str]:
    """The facts (regular expressions, case-insensitive) the Summary does not match; [] when it
    states them all."""
    text = summary_for_facts(summary)
    return [fact for fact in facts if not re.search(fact, text, re.IGNORECASE)]


@dataclass
class Answer:
    """One chat turn as the visitor saw it."""

    turn: ChatTurn
    summary: str = ""
    guides: list[str] = field(default_factory=list)  # the Relevant Guides' URLs, in order
    error: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)  # the stream's finish metadata


async def ask(services: ChatServices, session_id: uuid.UUID | None, question: str, audiences: list[str] | None) -> Answer:
    """One chat turn through the chat's own entry point (start_turn), its stream read to the end."""
    turn = await start_turn(services, session_id, question, audiences)
    answer = Answer(turn)
    text: list[str] = []
    async for part in turn.parts():
        kind = part.get("type")
        if kind == "text-delta":
            text.append(part["delta"])
        elif kind == "source-url":
            answer.guides.append(part["url"])
        elif kind == "error":
            answer.error = part.get("errorText") or "error"
        elif kind == "finish":
            answer.metadata = part.get("messageMetadata") or {}
    answer.summary = "".join(text)
    return answer


def outcome_of(answer: Answer) -> str:
    """answered, partly, refused or error: what the visitor saw (see the module's docstring)."""
    if answer.error is not None:
        return "error"
    if answer.metadata.get("would_answer") is False or answer.summary.strip() in (NOT_COVERED, NOT_FOUND):
        return "refused"
    return "partly" if _verdict(answer.turn) == "partly" else "answered"


def _verdict(turn: ChatTurn) -> object:
    """The verdict the turn acted on: the model verifier's when it gave one, else the offline check's."""
    explanation = turn.retrieval.judgment.explanation if turn.retrieval is not None else {}
    for key in ("answer_verifier", "answer_check"):
        check = explanation.get(key)
        if isinstance(check, dict) and check.get("verdict"):
            return check["verdict"]
    return None


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
    this module that runs the chat. Each question is a turn through the chat's entry point
    (`ask`), in a session deleted afterwards; no gap is recorded."""
    session_id: uuid.UUID | None = None
    answer: Answer | None = None
    try:
        for earlier in history:
            answer = await ask(services, session_id, _parsed(earlier), audiences)
            session_id = answer.turn.session_id
            async with services.pool.acquire() as conn:  # the reply, as the chat keeps it (no gap)
                await add_message(conn, session_id, "assistant", answer.summary, answer.turn.sources,
                                  answer.turn.message_key)
        answer = await ask(services, session_id, _parsed(question), audiences)
    finally:
        if answer is not None:
            async with services.pool.acquire() as conn:
                await delete_session(conn, answer.turn.session_id, answer.turn.audiences)
    assert answer is not None  # ask() returned, or its exception has left this function
    return Reply(answer.summary, outcome_of(answer), answer.guides, answer.metadata.get("confidence"), answer.error)


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
