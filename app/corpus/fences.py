"""Fenced code blocks: found once, so that no step edits or cuts through code."""

from __future__ import annotations

import re
from dataclasses import dataclass

_FENCE_OPEN = re.compile(r"^[ \t]*(`{3,}|~{3,})(.*)$")


@dataclass(frozen=True)
class Segment:
    text: str  # whole lines, newlines included
    is_code: bool


def _closes(line: str, marker: str) -> bool:
    stripped = line.strip()
    return (
        len(stripped) >= len(marker)
        and stripped[0] == marker[0]
        and set(stripped) == {marker[0]}
    )


def split_fenced(text: str) -> list[Segment]:
    """Cut `text` into alternating prose and fenced-code segments; joining them gives `text` back.

    An unclosed fence runs to the end of the text, as Markdown renders it.
    """
    segments: list[Segment] = []
    prose: list[str] = []
    code: list[str] = []
    marker: str | None = None
    for line in text.splitlines(keepends=True):
        if marker is None:
            opening = _FENCE_OPEN.match(line.rstrip("\r\n"))
            # A backtick fence's info string may not contain backticks (CommonMark).
            if opening and not (opening.group(1)[0] == "`" and "`" in opening.group(2)):
                if prose:
                    segments.append(Segment("".join(prose), False))
                    prose = []
                marker = opening.group(1)
                code = [line]
            else:
                prose.append(line)
        else:
            code.append(line)
            if _closes(line, marker):
                segments.append(Segment("".join(code), True))
                code, marker = [], None
    if marker is not None:
        segments.append(Segment("".join(code), True))
    if prose:
        segments.append(Segment("".join(prose), False))
    return segments
