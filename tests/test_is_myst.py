"""is_myst searches for each of MyST's syntaxes from its first character (a line start as the `\n`
before it): it must find what one search of the alternatives, each line start `^`, finds."""

from __future__ import annotations

import random
import re

import pytest

from app.corpus.markdown import is_myst

# MyST's syntax as one pattern (the form is_myst had): the oracle.
_ONE_PATTERN = re.compile(r"^[ \t>*+\-\d.)]*(?:(?:`{3,}|~{3,}|:{3,})[ \t]*\{[\w:-]+\}|%)"
                          r"|\{[\w:+-]+\}`|^\([\w:.-]+\)=[ \t]*$", re.MULTILINE)
_PIECES = ["\n", "\n", "\r\n", "\r", " ", "\t", ">", "*", "+", "-", "1", "٣", ".", ")", "```", "~~~", ":::", "``", "{note}",
           "{a:b}", "{x-y}", "%", "{x}`", "{a+b}`", "(lab)=", "(a.b-c)=", "=", "(", ")", "{", "}", "`", ":", "a", "é", "\u2028",
           "\x0b", "\x0c", "\x85"]


@pytest.mark.parametrize(("text", "myst"), [
    ("```{note}\nx\n```", True), ("> - :::{tip}", True), ("a\n% comment", True), ("1. % c", True),
    ("see {ref}`x`", True), ("(label)=", True), ("a\n(label)= \nb", True), ("a % b", False), ("```python", False),
    ("a\r% b", False), ("(label)=x", False), ("{ref} `x`", False), ("", False),
])
def test_myst_syntax_found(text: str, myst: bool) -> None:
    assert is_myst(text) is myst


def test_finds_what_one_pattern_finds() -> None:
    rng = random.Random(35)
    differ = []
    for _ in range(50_000):
        text = "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 14)))
        if is_myst(text) != (_ONE_PATTERN.search(text) is not None):
            differ.append(text)
    assert not differ, differ[:5]
