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


def split_fenced(text: str) -> list[Segment]:
    """Cut `text` into alternating prose and fenced-code segments; joining them gives `text` back.

    An unclosed fence runs to the end of the text, as Markdown renders it.
    """
    runs: list[tuple[bool, list[str]]] = []  # (is code, lines): joined once, at the end
    marker: str | None = None
    for line in text.splitlines(keepends=True):
        opens = marker is None and (marker := fence_marker(line)) is not None
        if opens or not runs or runs[-1][0] != (marker is not None):
            runs.append((marker is not None, []))
        runs[-1][1].append(line)
        stripped = line.strip()
        if not opens and marker and len(stripped) >= len(marker) and set(stripped) == {marker[0]}:
            marker = None  # the closing line ends the fence
    return [Segment("".join(lines), is_code) for is_code, lines in runs]
