"""The proximity re-rank's pair matcher (app/search/proximity.py) against the rule it implements,
the regular expression it replaced: on the sections of the shared corpora with the pairs of their
dev questions, and on texts made to hit the rule's corners."""

from __future__ import annotations

import json
import re
from functools import cache

import pytest

from app.search.proximity import _STOP_WORDS, _found, question_pairs
from tests.conftest import SHARED
from tests.test_navigation_pages import corpus

_GAP = r"[\W_]+(?:(?:" + "|".join(sorted(_STOP_WORDS, key=len, reverse=True)) + r")[\W_]+)*"


@cache
def rule(pair: tuple[str, str]) -> re.Pattern[str]:
    a, b = pair
    return re.compile(rf"{re.escape(a)}[^\W_]*{_GAP}{re.escape(b)}")


def by_rule(pair: tuple[str, str], text: str) -> bool:
    return any(m.start() == 0 or not text[m.start() - 1].isalnum() for m in rule(pair).finditer(text))


@pytest.mark.parametrize("name", ["claude", "ray"])
def test_the_pair_matcher_agrees_with_the_rule_on_the_shared_corpora(name: str) -> None:
    questions = SHARED / "eval" / f"{name}-docs-dev.jsonl"
    if not questions.is_file():
        pytest.skip(f"{questions} is not present")
    texts = [text.lower() for text in corpus(f"{name}-docs").values()]
    pairs = {pair for line in questions.read_text().splitlines() if line.strip()
             for pair in question_pairs(json.loads(line)["question"])}
    found = compared = 0
    for pair in sorted(pairs):
        holding = [t for t in texts if pair[0] in t][:300]  # without `a` neither matches
        for text in holding:
            assert _found(pair, text) == by_rule(pair, text), (pair, text[:200])
        compared += len(holding)
        found += sum(by_rule(pair, t) for t in holding)
    assert compared > 5000 and found > 100, (compared, found)


def test_the_pair_matcher_agrees_with_the_rule_in_its_corners() -> None:
    cases = {
        ("head", "node"): ["the head node", "the head of the node", "headnode", "ahead node", "ahead node head node",
                           "head_node", "head__of__the__node", "heads, nodes", "head\nnode", "head of", "head",
                           "xhead node", "head the", "head ofthe node", "head of the", "heading of a node"],
        ("node", "node"): ["node node", "xnode node node", "node of node", "nodes", "node"],
        ("about", "their"): ["about their", "about their their", "about the their", "abouts theirselves"],
        ("their", "their"): ["their their their", "theirs their", "their", "xtheir their their their"],
        ("a1", "b2"): ["a1 b2", "a1-b2", "a1 and b2", "xa1 a1 b2", "a1 an b2", "a1 a b2", "a1 and an b2x"],
        ("naïv", "café"): ["naïve café", "naïve, the café", "unnaïve café", "naïve_café"],
    }
    for pair, texts in cases.items():
        for text in texts:
            assert _found(pair, text) == by_rule(pair, text), (pair, text)
    assert _found(("head", "node"), "the head of the node") and not _found(("head", "node"), "ahead node")
