"""Standalone query: the latest question, completed from earlier user turns when it depends on them.

Pure and deterministic. Linguistic cues say how likely the question leans on the conversation:

- "strong": it is elliptic (no informative word of its own beyond one: "why?", "and wildcards?");
- "weak": it opens like a continuation ("and …", "what about …", "also …") or refers back with a
  pronoun or demonstrative ("it", "that", "those", "there"), but carries words of its own;
- "none": nothing points back.

The completion appends the informative words of the previous turn's own standalone query (so a
chain of follow-ups keeps its topic) that the question does not already hold. Whether the
completion is used is decided with retrieval evidence in app/search/conversation.py: this module
only proposes it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from app.search.terms import clip_question, words

Cue = Literal["strong", "weak", "none"]

# Function words, question words and conversational filler: they never carry a topic.
STOPWORDS = frozenset(
    """a an the and or but so also then plus too as at by for from in into of on onto over to up with without
    about after before between during through under within via per than
    i me my we us our you your he she him her his they them their theirs it its itself this that these those
    there here one ones someone something anything everything
    is am are was were be been being do does did doing done have has had having can could should would will
    shall may might must need needs let lets get gets got make makes made
    what which who whom whose when where why how whether if else instead
    not no yes ok okay please thanks thank hi hello hey just really very much many more most less least
    some any all each every other another same such own only again still even ever already
    way ways thing things kind sort lot bit""".split()
)
# A question that opens with one of these continues the previous one.
_CONTINUATION_OPENERS = (
    "and", "but", "also", "plus", "so", "then", "or", "what about", "how about", "what if", "and if",
    "same for", "same with", "instead", "otherwise", "besides", "as well", "too",
)
# Words that point back to something said earlier.
_BACK_REFERENCES = frozenset(
    "it its itself they them their theirs that those these this there one ones such same above former latter".split()
)
_MAX_CARRIED_TERMS = 8


@dataclass(frozen=True)
class StandaloneQuery:
    question: str  # the latest question as asked
    query: str  # what is searched when the completion is used
    cue: Cue
    carried: tuple[str, ...]  # words taken from earlier turns (empty: nothing to carry)

    @property
    def completed(self) -> bool:
        return bool(self.carried)


def informative_terms(text: str) -> list[str]:
    """Content words in order of appearance, each once (letters/digits, 2+ characters, no stopwords)."""
    seen: set[str] = set()
    terms: list[str] = []
    for word in words(text):
        if len(word) < 2 or word in STOPWORDS or word.isdigit() or word in seen:
            continue
        seen.add(word)
        terms.append(word)
    return terms


def _stem(word: str) -> str:
    # The same crude 5-letter stem as names_page: "domains" and "domain" meet.
    return word[:5]


def dependency_cue(question: str) -> Cue:
    """How strongly the question's wording leans on an earlier turn."""
    lowered = " ".join(words(question))
    if not lowered:
        return "none"
    if len(informative_terms(question)) <= 1:
        return "strong"  # elliptic: "why?", "how long?", "and for subdomains?"
    if any(lowered == opener or lowered.startswith(opener + " ") for opener in _CONTINUATION_OPENERS):
        return "weak"  # "and …" with words of its own may also open a new topic
    if lowered.endswith((" too", " as well", " instead")):
        return "weak"
    tokens = lowered.split()
    if any(w in _BACK_REFERENCES and not _existential(tokens, i) for i, w in enumerate(tokens)):
        return "weak"
    return "none"


def _existential(tokens: list[str], index: int) -> bool:
    """"there" in "is there …", "are there …", "there is …": it points at nothing said before."""
    if tokens[index] != "there":
        return False
    before = tokens[index - 1] if index else ""
    after = tokens[index + 1] if index + 1 < len(tokens) else ""
    return before in {"is", "are", "was", "were", "will", "be"} or after in {"is", "are", "was", "were", "s"}


def standalone_query(question: str, history: list[str]) -> StandaloneQuery:
    """The question completed from `history` (earlier user questions, oldest first).

    The previous question, when it leaned on the turns before it, is first completed the same way,
    so "and how long does it take?" after "and on a subdomain?" after "How do I add a custom
    domain?" still carries "custom domain". Only the last three questions count.
    """
    question = clip_question(question).strip()
    cue = dependency_cue(question)
    earlier = [h.strip() for h in history if h and h.strip()][-3:]
    if not earlier:
        return StandaloneQuery(question, question, cue, ())
    previous = earlier[-1]
    if len(earlier) > 1 and dependency_cue(previous) != "none":
        previous = standalone_query(previous, earlier[:-1]).query
    own = {_stem(t) for t in informative_terms(question)}
    carried: list[str] = []
    for term in informative_terms(previous):
        if _stem(term) not in own and len(carried) < _MAX_CARRIED_TERMS:
            carried.append(term)
            own.add(_stem(term))
    if not carried:
        return StandaloneQuery(question, question, cue, ())
    return StandaloneQuery(question, f"{question} ({' '.join(carried)})", cue, tuple(carried))


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def clean_rewrite(rewrite: str | None, question: str) -> str | None:
    """A model's rewrite, usable as a query: one line, not empty, not absurdly long."""
    if not rewrite:
        return None
    text = _squash(rewrite).strip("\"'` ")
    if not text or len(text) > max(300, 3 * len(question)):
        return None
    return clip_question(text)
