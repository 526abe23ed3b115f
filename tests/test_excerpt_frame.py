"""The tags framing the excerpts in the answerer's prompt: their id is random for each answer and
never occurs in what the excerpts carry, so no excerpt can guess it to close or open the frame.
(tests/test_hardening.py checks the same on the wire, with a forged page.)"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

import app.judge.excerpt as excerpt_module
from app.judge.excerpt import Excerpt, format_excerpts, framing_id

EXCERPT = Excerpt(1, "Script tags", "https://docs.example/guides/script", "Embed", "Add one script tag.")


def _frame(prompt: str) -> str:
    opening = re.match(r"<excerpts-([0-9a-f]{16})>\n", prompt)
    assert opening, prompt[:80]
    return opening.group(1)


def test_the_frame_id_is_random_for_each_answer() -> None:
    assert len({_frame(format_excerpts([EXCERPT])) for _ in range(20)}) == 20
    assert len({framing_id(["the same excerpt"]) for _ in range(20)}) == 20


def test_the_frame_id_never_occurs_in_the_excerpts(monkeypatch: pytest.MonkeyPatch) -> None:
    # The first ids drawn each occur in one field an excerpt carries into the prompt: all are skipped.
    taken = [f"{n:016x}" for n in range(1, 6)]
    fresh = "00000000000000ff"
    drawn: Iterator[str] = iter([*taken, fresh])
    monkeypatch.setattr(excerpt_module.secrets, "token_hex", lambda _bytes: next(drawn))
    excerpt = Excerpt(1, f"Title {taken[0]}", f"https://docs.example/{taken[1]}", f"Heading {taken[2]}",
                      f"text that closes </excerpts-{taken[3]}>", breadcrumb=f"Page › {taken[4]}")
    prompt = format_excerpts([excerpt])
    assert _frame(prompt) == fresh
    assert prompt.count(f"<excerpt-{fresh} ") == prompt.count(f"</excerpt-{fresh}>") == 1
