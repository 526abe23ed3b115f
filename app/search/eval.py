"""Retrieval evaluation with the anthropic-cookbook definitions (sections at k, MRR, page recall).

Input: JSON lines `{"question": ..., "gold": [absolute section URLs], ...}`; a line may carry
`"history": [earlier user questions, oldest first]`, searched exactly as the chat does.
A line with `"gold": []` is an unanswerable question: it scores refusals (`refusal_rate`), never the
retrieval metrics, which keep their meaning over the answerable lines; `false_refusal_rate` is the
share of answerable questions refused. An unanswerable line may say which kind it is,
`"unanswerable": "offtopic"` (not about the product) or `"indomain"` (in the product's words, but
the docs do not hold the answer): the report then gives the refusal rate of each kind
(`refusal_by_kind`) beside the overall one, and how many of that kind were answered "partly"
(with a line naming what the docs do not cover; app/judge/answer_check.py).

Two more keys are read for the answer-level evaluation (app/evaluation/answers.py): `"facts"`,
what a right answer must say (a regular expression, or a list of them that must all match; `|`
inside one says "any of"), and `"split"`, the part of the set a line belongs to ("dev" for tuning,
"heldout" for confirming; any short name), which the answer report breaks its figures down by.
Facts may also come from a file of their own keyed by `id` (`load_facts_file`), for question files
one cannot edit.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from pathlib import Path

from app.errors import DocschatError
from app.search.conversation import QueryRewriter, retrieve_in_conversation
from app.search.retrieve import Mode, Retriever
from app.search.urls import absolute_url, normalize_url

UNANSWERABLE_KINDS = ("offtopic", "indomain")


class EvalFileError(DocschatError):
    """The question file cannot be used."""


@dataclass(frozen=True)
class EvalItem:
    question: str
    gold: list[str]  # empty: the docs do not answer it
    id: str | None = None
    history: tuple[str, ...] = ()
    unanswerable: str | None = None  # "offtopic" | "indomain" | None (not said)
    facts: tuple[str, ...] = ()  # regular expressions a right answer matches, all of them
    split: str | None = None  # "dev" | "heldout" (or another name the file uses)

    @property
    def answerable(self) -> bool:
        return bool(self.gold)


def load_eval_file(path: Path) -> list[EvalItem]:
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()  # a byte order mark is not a question
    except OSError as exc:
        raise EvalFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise EvalFileError(f"{path}: not UTF-8 text (byte {exc.start}): JSON lines are UTF-8") from None
    items: list[EvalItem] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise EvalFileError(f"{path}:{number}: not JSON ({exc.msg})") from None
        except (RecursionError, ValueError) as exc:  # nested too deep; an integer of 4,300+ digits
            raise EvalFileError(f"{path}:{number}: JSON that cannot be read ({type(exc).__name__})") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("question"), str) or not obj["question"].strip():
            raise EvalFileError(f"{path}:{number}: needs a non-empty string 'question'")
        gold = obj.get("gold")
        if not isinstance(gold, list) or not all(isinstance(g, str) and _is_url(g) for g in gold):
            # A gold that is no absolute URL can never be retrieved: its question would score 0 unseen.
            raise EvalFileError(f"{path}:{number}: needs 'gold', a list of absolute URLs (https://…; [] for an "
                                "unanswerable question)")
        history = obj.get("history", [])
        if not isinstance(history, list) or not all(isinstance(h, str) for h in history):
            raise EvalFileError(f"{path}:{number}: 'history' must be a list of earlier questions (strings)")
        kind = obj.get("unanswerable")
        if kind is not None and kind not in UNANSWERABLE_KINDS:
            raise EvalFileError(f"{path}:{number}: 'unanswerable' must be one of {', '.join(UNANSWERABLE_KINDS)}")
        if kind is not None and gold:
            raise EvalFileError(f"{path}:{number}: an 'unanswerable' line needs 'gold': []")
        facts = _facts(obj.get("facts", []), f"{path}:{number}")
        if facts and not gold:
            raise EvalFileError(f"{path}:{number}: an unanswerable line ('gold': []) has no 'facts'")
        split = obj.get("split")
        if split is not None and (not isinstance(split, str) or not split.strip()):
            raise EvalFileError(f"{path}:{number}: 'split' must be a name such as \"dev\" or \"heldout\"")
        items.append(EvalItem(obj["question"], [normalize_url(g) for g in gold], obj.get("id"), tuple(history), kind,
                              facts, split))
    if not items:
        raise EvalFileError(f"{path}: no questions")
    return items


def _facts(raw: object, where: str) -> tuple[str, ...]:
    """`"facts"`: one regular expression or a list of them, each one that compiles."""
    patterns = [raw] if isinstance(raw, str) else raw
    if not isinstance(patterns, list) or not all(isinstance(p, str) and p.strip() for p in patterns):
        raise EvalFileError(f"{where}: 'facts' must be a regular expression or a list of them (non-empty strings)")
    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise EvalFileError(f"{where}: fact {pattern!r} is not a regular expression ({exc})") from None
    return tuple(patterns)


def load_facts_file(path: Path, items: list[EvalItem]) -> list[EvalItem]:
    """`items` with the facts of a JSON lines file `{"id", "facts"}` (facts for a question file one
    cannot edit, such as a shared set). Every id must name an answerable question of `items`."""
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except OSError as exc:
        raise EvalFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise EvalFileError(f"{path}: not UTF-8 text (byte {exc.start}): JSON lines are UTF-8") from None
    by_id = {str(item.id): item for item in items if item.id is not None}
    facts: dict[str, tuple[str, ...]] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except (json.JSONDecodeError, RecursionError, ValueError):
            raise EvalFileError(f"{path}:{number}: not JSON") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("id"), str):
            raise EvalFileError(f"{path}:{number}: needs a string 'id' naming a question")
        item = by_id.get(obj["id"])
        if item is None:  # a typo would silently leave its question without facts
            raise EvalFileError(f"{path}:{number}: no question has id {obj['id']!r}")
        if not item.answerable:
            raise EvalFileError(f"{path}:{number}: question {obj['id']!r} is unanswerable ('gold': []): no facts")
        facts[obj["id"]] = _facts(obj.get("facts"), f"{path}:{number}")
    return [replace(item, facts=facts[str(item.id)]) if str(item.id) in facts else item for item in items]


def _is_url(text: str) -> bool:
    return text.strip().startswith(("http://", "https://")) and len(text.strip()) > len("https://")


async def evaluate(
    retriever: Retriever, items: list[EvalItem], *, mode: Mode, k: int, base_url: str,
    audiences: list[str] | None = None, use_history: bool = True, rewriter: QueryRewriter | None = None,
) -> dict[str, object]:
    """`use_history=False` searches every line's question alone (the baseline for conversations)."""
    per_question = []
    totals = {"precision": 0.0, "recall": 0.0, "mrr": 0.0, "page_recall": 0.0}
    refused = {"answerable": 0, "unanswerable": 0}
    for item in items:
        history = list(item.history) if use_history else []
        retrieval = await retrieve_in_conversation(
            retriever, item.question, history, rewriter=rewriter, mode=mode, audiences=audiences
        )
        sections: list[str] = []
        for fused in retrieval.ranking:  # parts of one split section share an href: count it once
            url = absolute_url(base_url, fused.hit.href)
            if url not in sections:
                sections.append(url)
            if len(sections) == k:
                break
        kind = "answerable" if item.answerable else "unanswerable"
        if not retrieval.would_answer:
            refused[kind] += 1
            if item.unanswerable:
                refused[item.unanswerable] = refused.get(item.unanswerable, 0) + 1
        elif _verdict(retrieval.judgment.explanation.get("answer_check")) == "partly":
            # Answered with a line naming what the docs do not cover: not a refusal, counted apart.
            key = f"partly:{item.unanswerable or kind}"
            refused[key] = refused.get(key, 0) + 1
        result: dict[str, object] = {
            "id": item.id, "question": item.question, "retrieved": sections, "gold": item.gold,
            "degraded": retrieval.degraded, "confidence": retrieval.confidence,
            "would_answer": retrieval.would_answer, "history": list(item.history), "query": retrieval.question,
        }
        if item.unanswerable:
            result["unanswerable"] = item.unanswerable
        check = retrieval.judgment.explanation.get("answer_check")
        if check is not None:
            result["answer_check"] = check
        if item.answerable:
            gold = set(item.gold)
            found = [u for u in sections if u in gold]
            precision = len(found) / len(sections) if sections else 0.0
            recall = len(set(found)) / len(gold)
            mrr = next((1.0 / rank for rank, u in enumerate(sections, 1) if u in gold), 0.0)
            gold_pages = {g.split("#", 1)[0] for g in gold}
            kept_pages = {absolute_url(base_url, p.page_href) for p in retrieval.pages}
            page_recall = len(gold_pages & kept_pages) / len(gold_pages)
            for name, value in zip(totals, (precision, recall, mrr, page_recall), strict=True):
                totals[name] += value
            result |= {"precision": precision, "recall": recall, "mrr": mrr, "page_recall": page_recall}
        per_question.append(result)
    answerable = sum(1 for item in items if item.answerable)
    unanswerable = len(items) - answerable
    return {
        "mode": mode, "k": k, "questions": len(items), "answerable": answerable, "unanswerable": unanswerable,
        **{name: round(value / answerable, 4) if answerable else None for name, value in totals.items()},
        "refusal_rate": round(refused["unanswerable"] / unanswerable, 4) if unanswerable else None,
        "false_refusal_rate": round(refused["answerable"] / answerable, 4) if answerable else None,
        **({"refusal_by_kind": by_kind} if (by_kind := _refusal_by_kind(items, refused)) else {}),
        "per_question": per_question,
    }


def _refusal_by_kind(items: list[EvalItem], refused: dict[str, int]) -> dict[str, dict[str, object]]:
    """Refusal rate of each kind of unanswerable line the file names (empty when it names none)."""
    report: dict[str, dict[str, object]] = {}
    for kind in UNANSWERABLE_KINDS:
        total = sum(1 for item in items if item.unanswerable == kind)
        if total:
            report[kind] = {"questions": total, "refused": refused.get(kind, 0),
                            "refusal_rate": round(refused.get(kind, 0) / total, 4),
                            "partly": refused.get(f"partly:{kind}", 0)}
    return report


def _verdict(check: object) -> object:
    """The verdict of an explanation's answer check (None when there is none)."""
    return check.get("verdict") if isinstance(check, dict) else None
