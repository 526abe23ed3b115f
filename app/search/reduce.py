"""Long questions (pasted stack traces, logs, 500-word posts) reduced to their informative lines.

A pasted traceback is mostly frames (`File "/usr/lib/…", line 12, in f`), addresses and log
prefixes: words the docs never use. In the full-text leg they take the slots of the question's
rarest terms; in the vector leg they push the question itself past what the model reads (MiniLM
reads 256 word pieces). The lines that carry the question are kept: prose, and the error line
itself (`ValueError: The actor ImplicitFunc is too large`), once each, in their order.
"""

from __future__ import annotations

import re

# Questions up to this length are searched as they are: short questions have no noise to remove.
LONG_QUESTION_CHARS = 400
# What a reduced question keeps at most: the start (where people say what they want) and the end
# (where they often ask it), around the error lines.
REDUCED_QUESTION_CHARS = 1000

_FRAME = re.compile(
    r"""^\s*(?:File\s+["'<].*?,\s*line\s+\d+   # Python frame
          |at\s+[\w$.<>]+\(.*\)\s*$            # Java / JS frame
          |\^+\s*$|~+\s*$                      # caret underlines
          |\.\.\.\s*\d*\s*more\s*$             # "... 12 more"
          |Traceback\s+\(most\s+recent\s+call\s+last\)
          )""",
    re.VERBOSE | re.IGNORECASE,
)
_ERROR_LINE = re.compile(r"^\s*(?:[\w.]+\.)?\w*(?:Error|Exception|Warning|Exit|Interrupt)(?:\([\w.]+\))?\s*:")
_LOG_PREFIX = re.compile(
    r"""^\s*(?:\(\w+[^)]*\)\s*)?                  # (raylet, pid=123, ip=10.0.0.1)
          (?:\[?\d{4}-\d{2}-\d{2}[ T][\d:.,]+\]?\s*)?  # 2024-01-02 10:11:12,345
          (?:\[?\b(?:INFO|DEBUG|WARNING|WARN|ERROR|CRITICAL|TRACE)\b\]?\s*)?""",
    re.VERBOSE,
)
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


def _letters_share(line: str) -> float:
    visible = [c for c in line if not c.isspace()]
    return sum(c.isalpha() for c in visible) / len(visible) if visible else 0.0


def _informative(line: str) -> bool:
    """Prose or an error line; not a frame, a fence marker, or a line of symbols and numbers."""
    if not line.strip() or _FRAME.match(line) or _FENCE.match(line):
        return False
    if _ERROR_LINE.match(line):
        return True
    return _letters_share(line) >= 0.6


def reduce_question(question: str) -> str:
    """The question itself when short; else its informative lines, log prefixes removed, each once,
    about REDUCED_QUESTION_CHARS: the first error lines, then the start and the end of the rest."""
    if len(question) <= LONG_QUESTION_CHARS:
        return question
    kept: list[str] = []
    seen: set[str] = set()
    for raw in question.splitlines():
        if not _informative(raw):
            continue
        line = _LOG_PREFIX.sub("", raw, count=1).strip()
        key = re.sub(r"\d+", "0", line.lower())  # repeated lines differing only in numbers: once
        if line and key not in seen:
            seen.add(key)
            kept.append(line)
    reduced = "\n".join(kept)
    if len(reduced) <= REDUCED_QUESTION_CHARS:
        return reduced or question[:REDUCED_QUESTION_CHARS]
    errors = [line for line in kept if _ERROR_LINE.match(line)][:3]
    budget = max(REDUCED_QUESTION_CHARS - sum(len(e) + 1 for e in errors), REDUCED_QUESTION_CHARS // 2)
    text = "\n".join(line for line in kept if line not in errors)
    if len(text) > budget:
        text = text[: budget * 2 // 3] + "\n" + text[-(budget // 3):]
    return "\n".join([*errors, text])
