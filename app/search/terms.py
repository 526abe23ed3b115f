"""Question text helpers: normalization (cache keys) and whether a question names a page."""

from __future__ import annotations

import hashlib
import re

MAX_QUESTION_CHARS = 2000
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def clip_question(question: str) -> str:
    """Questions are cut to 2000 characters before they are embedded or sent anywhere."""
    return question[:MAX_QUESTION_CHARS]


def normalize_question(question: str) -> str:
    return " ".join(clip_question(question).lower().split())


def question_key(model: str, question: str) -> str:
    """Cache id of a question's embedding: a hash, so the question itself is never stored."""
    return hashlib.sha256(f"{model}\n{normalize_question(question)}".encode()).hexdigest()


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def names_page(question: str, title: str, path: str = "") -> bool:
    """True when every significant word of the page's title (or file name) is in the question.

    Words match on a shared 5-letter stem, so "tests" names "Cucumber Tests" and "privacy" alone
    does not name "Privacy Policy".
    """
    asked = words(question)
    for name in (title, re.sub(r"\.mdx?$", "", path.rsplit("/", 1)[-1]).replace("-", " ")):
        wanted = [w for w in words(name) if len(w) >= 3]
        if wanted and all(any(q[:5] == w[:5] for q in asked) for w in wanted):
            return True
    return False
