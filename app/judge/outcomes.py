"""What became of a question: refused as off the docs' topic (below the answer floor), refused
because the docs do not say (a model verifier's "not": the topic is near, the answer is not
there), answered in part (a line names what the docs found do not mention), or answered.

The gaps table stores one of OUTCOMES per gap (app/chat/gaps.py, revision 2026_12_02_0018); a gap
recorded before the column is read from `refused` and its confidence (`outcome_of`).
"""

from __future__ import annotations

from typing import Any

from app.judge.confidence import (
    DEFAULT_ANSWER_FLOOR,
    DEFAULT_KEYWORD_ANSWER_FLOOR,
    DEFAULT_LOW_CONFIDENCE_MARGIN,
    Judgment,
)

REFUSED_OFFTOPIC, REFUSED_INDOMAIN, PARTLY, ANSWERED = "refused_offtopic", "refused_indomain", "partly", "answered"
OUTCOMES = (REFUSED_OFFTOPIC, REFUSED_INDOMAIN, PARTLY, ANSWERED)
#: What a gap recorded before the outcome column was: refused of either kind.
REFUSED = "refused"
#: The judgment rules that refuse a question near the docs' topic whose answer they do not hold.
#: ("answer_check" refused until issue 45; a gap recorded then keeps the outcome it was given.)
INDOMAIN_RULES = frozenset({"answer_verifier"})


def low_line(settings: Any | None) -> float:
    """The highest low-confidence line the judgment may draw with these settings (hybrid and
    keyword-only retrieval have floors of their own; confidence.py `_low_line`): an answered gap
    below it is a low-confidence one."""
    answer = getattr(settings, "answer_floor", None)
    keyword = getattr(settings, "keyword_answer_floor", None)
    floor = max(DEFAULT_ANSWER_FLOOR if answer is None else answer, DEFAULT_KEYWORD_ANSWER_FLOOR if keyword is None else keyword)
    low = getattr(settings, "low_confidence", None)
    return max(low, floor) if low is not None else min(1.0, floor + DEFAULT_LOW_CONFIDENCE_MARGIN)


def outcome_of(refused: bool, confidence: float, line: float) -> str:
    """The outcome of a gap recorded before the column: read from `refused` and the confidence (an
    answered gap at or above the low-confidence line can only have been recorded as partly)."""
    if refused:
        return REFUSED
    return ANSWERED if confidence < line else PARTLY


def is_partly(judgment: Judgment) -> bool:
    """Answered, with a line naming what the docs do not cover: the model verifier's verdict when
    it gave one (it replaces the offline one), else the offline answer check's."""
    explanation = judgment.explanation
    check = explanation.get("answer_verifier") or explanation.get("answer_check")
    return bool(judgment.would_answer and isinstance(check, dict) and check.get("verdict") == "partly")


def outcome(judgment: Judgment) -> str:
    """refused_indomain when the model verifier refused (the topic is near, the docs do not say),
    refused_offtopic when the floor did, partly when answered with a line on what the docs do not
    cover, else answered."""
    if not judgment.would_answer:
        return REFUSED_INDOMAIN if judgment.rule in INDOMAIN_RULES else REFUSED_OFFTOPIC
    return PARTLY if is_partly(judgment) else ANSWERED


def is_gap(judgment: Judgment) -> bool:
    """Refused, answered below the low-confidence line, or answered only in part."""
    return not judgment.would_answer or judgment.is_low or is_partly(judgment)
