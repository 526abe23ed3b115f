"""Fenced code blocks: found once, so that no step edits or cuts through code."""

from __future__ import annotations

import re
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
