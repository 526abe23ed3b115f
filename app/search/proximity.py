"""Proximity: a section where the question's words stand next to each other, as in the question,
ranks above one where they are scattered.

The full-text leg scores each term alone (IDF × ts_rank), so "head node" matches a section about
the head of a queue and a node pool as well as one about the head node. Its hits are re-scored here:
score × (1 + weight × the share of the question's adjacent word pairs found adjacent in the
section, heading included). Stop words are skipped on both sides ("IP of the head node" pairs
"head node"), and words compare on their first five letters, a cheap stem ("nodes" is "node").
Only the leg's own hits are re-ordered, inside the leg (legs.search_docs_sections): nothing is
added or removed.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace

from app.search.hits import Hit

PROXIMITY_WEIGHT = 1.0  # a section holding every pair of the question, in order, counts double
_STEM = 5
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_STOP_WORDS = frozenset([
    "a", "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be", "been",
    "before", "being", "between", "both", "but", "by", "can", "could", "did", "do", "does", "doing",
    "during", "each", "few", "for", "from", "further", "had", "has", "have", "having", "he", "her", "here",
    "hers", "him", "his", "how", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "me", "more",
    "most", "my", "no", "nor", "not", "now", "of", "off", "on", "once", "only", "or", "other", "our", "ours",
    "out", "over", "own", "same", "she", "should", "so", "some", "such", "than", "that", "the", "their",
    "theirs", "them", "then", "there", "these", "they", "this", "those", "through", "to", "too", "under",
    "until", "up", "very", "was", "we", "were", "what", "when", "where", "which", "while", "who", "whom",
    "why", "will", "with", "would", "you", "your", "yours",
])


def _stems(text: str) -> list[str]:
    return [w[:_STEM] for w in _WORD.findall(text.lower()) if w not in _STOP_WORDS]


# Between two words of a pair: punctuation and spaces, with any stop words in between.
_GAP = r"[\W_]+(?:(?:" + "|".join(sorted(_STOP_WORDS, key=len, reverse=True)) + r")[\W_]+)*"


def pair_patterns(question: str) -> list[re.Pattern[str]]:
    """One pattern per adjacent pair of the question's words (stop words skipped, each word by its
    first five letters), compiled once per question. Patterns start with a literal, so the search
    of lower-cased text runs at C speed; the word boundary before it is checked after a match."""
    stems = _stems(question)
    pairs = dict.fromkeys(itertools.pairwise(stems))  # distinct, in order
    return [re.compile(rf"{re.escape(a)}[^\W_]*{_GAP}{re.escape(b)}") for a, b in pairs]


def _found(pattern: re.Pattern[str], text: str) -> bool:
    return any(m.start() == 0 or not text[m.start() - 1].isalnum() for m in pattern.finditer(text))


def proximity_share(patterns: list[re.Pattern[str]], hit: Hit) -> float:
    """The share of the question's adjacent pairs that stand adjacent in the section."""
    if not patterns:
        return 0.0
    text = f"{hit.heading}\n{hit.content}".lower()
    return sum(1 for p in patterns if _found(p, text)) / len(patterns)


def rerank_by_proximity(question: str, hits: list[Hit], weight: float = PROXIMITY_WEIGHT) -> list[Hit]:
    """The full-text hits re-scored by proximity, best first (same hits, new scores)."""
    patterns = pair_patterns(question)
    if not patterns or not hits:
        return hits
    rescored = [replace(h, score=h.score * (1 + weight * proximity_share(patterns, h))) for h in hits]
    return sorted(rescored, key=lambda h: (-h.score, h.id))
