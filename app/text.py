"""Text every step stores or sends: compose (code files), retrieval (questions) and chat (answers)."""

from __future__ import annotations

import re

_SURROGATE = re.compile("[\ud800-\udfff]")


def storable_text(text: str, nul: str = " ") -> str:
    """Text Postgres takes: a NUL becomes `nul` (a space by default, so "rotate\\0key" keeps both
    words) and a lone surrogate (a terminal's undecodable byte) U+FFFD, where either fails a statement."""
    return _SURROGATE.sub("\ufffd", text.replace("\x00", nul))
