"""Fenced code blocks: found once, so that no step edits or cuts through code."""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from dataclasses import dataclass

_FENCE_OPEN = re.compile(r"^[ \t]*(`{3,}|~{3,})(.*)$")


@dataclass(frozen=True)
class Segment:
    text: str  # whole lines, newlines included
    is_code: bool


def fence_marker(line: str) -> str | None:
    """The marker (```` ``` ````, ``~~~``, …) a line opens a code fence with; None if it opens none.
    A backtick fence's info string may not contain backticks (CommonMark)."""
    opening = _FENCE_OPEN.match(line.rstrip("\r\n"))
    if opening is None or (opening.group(1)[0] == "`" and "`" in opening.group(2)):
        return None
    return opening.group(1)


def closes_fence(line: str, marker: str) -> bool:
    stripped = line.strip()
    return (
        len(stripped) >= len(marker)
        and stripped[0] == marker[0]
        and set(stripped) == {marker[0]}
    )


def fence_after(marker: str | None, line: str) -> str | None:
    """The fence open after `line`, given the one open before it (None: none): as split_fenced
    reads fences, which myst._join_shown follows too."""
    if marker is None:
        return fence_marker(line)
    return None if closes_fence(line, marker) else marker


def split_fenced(text: str) -> list[Segment]:
    """Cut `text` into alternating prose and fenced-code segments; joining them gives `text` back.

    An unclosed fence runs to the end of the text, as Markdown renders it.
    """
    segments: list[Segment] = []
    prose: list[str] = []
    code: list[str] = []
    marker: str | None = None
    for line in text.splitlines(keepends=True):
        was_open, marker = marker is not None, fence_after(marker, line)
        if not was_open and marker is None:
            prose.append(line)
            continue
        if not was_open:
            if prose:
                segments.append(Segment("".join(prose), False))
                prose = []
            code = [line]
            continue
        code.append(line)
        if marker is None:
            segments.append(Segment("".join(code), True))
            code = []
    if marker is not None:
        segments.append(Segment("".join(code), True))
    if prose:
        segments.append(Segment("".join(prose), False))
    return segments


_BACKTICKS = re.compile(r"`+")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")


def code_spans(text: str) -> list[tuple[int, int]]:
    """Inline code spans as (start, end) offsets, as CommonMark finds them: a run of backticks
    up to the next run of the same length, within a paragraph (never across a blank line).

    Runs are matched through an index by length, in time linear in the text: a regex that looks
    for each run's closing run took minutes on one line of ever longer backtick runs.
    """
    spans: list[tuple[int, int]] = []
    start = 0
    for end in [m.start() for m in _BLANK_LINE.finditer(text)] + [len(text)]:
        runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(text, start, end)]
        by_length: dict[int, list[int]] = defaultdict(list)
        for index, (first, last) in enumerate(runs):
            by_length[last - first].append(index)
        index = 0
        while index < len(runs):
            same = by_length[runs[index][1] - runs[index][0]]
            closing = bisect.bisect_right(same, index)
            if closing < len(same):
                spans.append((runs[index][0], runs[same[closing]][1]))
                index = same[closing] + 1
            else:
                index += 1  # no closing run: these backticks are literal text
        start = end
    return spans
