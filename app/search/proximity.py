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


# Between two words of a pair: punctuation and spaces, with any stop words in between. As a regular
# expression (the rule; tests compare the matcher below with it):
#   {a}[^\W_]*[\W_]+(?:(?:{stop word}|…)[\W_]+)*{b}
# Compiling that per pair cost ~2 ms each (the alternation of 130 stop words, parsed in Python):
# milliseconds on the event loop for every question not in re's cache. The matcher walks the same
# steps with two precompiled runs.
_WORD_RUN = re.compile(r"[^\W_]*")
_GAP_RUN = re.compile(r"[\W_]+")


def question_pairs(question: str) -> list[tuple[str, str]]:
    """The question's adjacent pairs of words (stop words skipped, each word by its first five
    letters), distinct, in order."""
    return list(dict.fromkeys(itertools.pairwise(_stems(question))))


def _match_end(a: str, b: str, text: str, start: int) -> int | None:
    """Where the rule's match starting at `start` (where `a` stands) ends, or None: the rest of a's
    word, a gap, then as many stop words (each with its gap) as leave `b` next, fewest last."""
    end = _WORD_RUN.match(text, start + len(a)).end()  # type: ignore[union-attr]  # matches empty
    gap = _GAP_RUN.match(text, end)
    if gap is None:
        return None
    places = [gap.end()]
    while True:
        word = _WORD_RUN.match(text, places[-1])  # a stop word is a whole word: one alternative at most
        if word is None or word.group() not in _STOP_WORDS or (gap := _GAP_RUN.match(text, word.end())) is None:
            break
        places.append(gap.end())
    return next((place + len(b) for place in reversed(places) if text.startswith(b, place)), None)


def _found(pair: tuple[str, str], text: str) -> bool:
    """Whether the pair's rule matches at the start of a word, with the rule's matches taken as
    re.finditer takes them: left to right, each search resuming where the last match ended."""
    a, b = pair
    if b not in text:  # every match holds both
        return False
    start = text.find(a)
    while start != -1:
        end = _match_end(a, b, text, start)
        if end is None:
            start = text.find(a, start + 1)
        elif start == 0 or not text[start - 1].isalnum():
            return True
        else:
            start = text.find(a, end)
    return False


def proximity_share(pairs: list[tuple[str, str]], hit: Hit) -> float:
    """The share of the question's adjacent pairs that stand adjacent in the section."""
    if not pairs:
        return 0.0
    text = f"{hit.heading}\n{hit.content}".lower()
    return sum(1 for pair in pairs if _found(pair, text)) / len(pairs)


def rerank_by_proximity(question: str, hits: list[Hit], weight: float = PROXIMITY_WEIGHT) -> list[Hit]:
    """The full-text hits re-scored by proximity, best first (same hits, new scores)."""
    pairs = question_pairs(question)
    if not pairs or not hits:
        return hits
    rescored = [replace(h, score=h.score * (1 + weight * proximity_share(pairs, h))) for h in hits]
    return sorted(rescored, key=lambda h: (-h.score, h.id))
