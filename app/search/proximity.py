"""Proximity: a section where the question's words stand next to each other, as in the question,
ranks above one where they are scattered.

The full-text leg scores each term alone (IDF × ts_rank), so "head node" matches a section about
the head of a queue and a node pool as well as one about the head node. Its hits are re-scored here:
score × (1 + weight × the share of the question's adjacent word pairs found adjacent in the
section, heading included). Stop words are skipped on both sides ("IP of the head node" pairs
"head node"), and words compare on their first five letters, a cheap stem ("nodes" is "node").
Only the leg's own hits are re-ordered: nothing is added or removed.
"""

from __future__ import annotations

import re
from dataclasses import replace

from app.search.legs import Hit

PROXIMITY_WEIGHT = 1.0  # a section holding every pair of the question, in order, counts double
_STEM = 5
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_STOP_WORDS = frozenset(
    """a about after all also am an and any are as at be been before being between both but by can
    could did do does doing during each few for from further had has have having he her here hers him
    his how i if in into is it its itself just me more most my no nor not now of off on once only or
    other our ours out over own same she should so some such than that the their theirs them then there
    these they this those through to too under until up very was we were what when where which while
    who whom why will with would you your yours""".split()
)


def _stems(text: str) -> list[str]:
    return [w[:_STEM] for w in _WORD.findall(text.lower()) if w not in _STOP_WORDS]


def adjacent_pairs(text: str) -> set[tuple[str, str]]:
    stems = _stems(text)
    return set(zip(stems, stems[1:], strict=False))


def proximity_share(question_pairs: set[tuple[str, str]], hit: Hit) -> float:
    """The share of the question's adjacent pairs that stand adjacent in the section."""
    if not question_pairs:
        return 0.0
    return len(question_pairs & adjacent_pairs(f"{hit.heading}\n{hit.content}")) / len(question_pairs)


def rerank_by_proximity(question: str, hits: list[Hit], weight: float = PROXIMITY_WEIGHT) -> list[Hit]:
    """The full-text hits re-scored by proximity, best first (same hits, new scores)."""
    pairs = adjacent_pairs(question)
    if not pairs or not hits:
        return hits
    rescored = [replace(h, score=h.score * (1 + weight * proximity_share(pairs, h))) for h in hits]
    return sorted(rescored, key=lambda h: (-h.score, h.id))
