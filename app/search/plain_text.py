"""A section's Markdown as the text a reader sees, and a snippet of it around the matched words.

The text is made from markdown-it's tokens, parsed as /docs renders the stored sections
(app/web/pages.py: CommonMark, raw HTML off, so a `<tag>` in the text is text) with tables on (as
the chunker reads them): emphasis and link markup, fence lines, heading and list markers and table
pipes are the tokens' structure, not text; inline code, code blocks, link text and image alt text
are kept whole, `<ADMIN_TOKEN>` included. Each block is one run of words, blocks are joined by one
space.

The words to mark come from Postgres (ts_headline's markers in docs_search_box's `snippet`), which
stems and parses as the index does: they are found again in the plain text as whole words, in any
case. A snippet starts and ends at white space, a few words before the first match (or where its
sentence begins, when that is nearer), unless a single run of text (Chinese, a long identifier) is
longer than a snippet: then it is cut between two characters, never inside a combining sequence.
"""

from __future__ import annotations

import re
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

_MD = MarkdownIt("commonmark", {"html": False}).enable("table")
_CACHE_SIZE = 4096
_cache: OrderedDict[str, tuple[str, str]] = OrderedDict()
ELLIPSIS = "…"


def _inline_text(children: Iterable[Token]) -> str:
    parts: list[str] = []
    for token in children:
        if token.type in ("text", "code_inline"):
            parts.append(token.content)
        elif token.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif token.type == "image":  # its alt text, as a reader without the picture gets it
            parts.append(_inline_text(token.children or []))
    return "".join(parts)


def _squeezed(text: str) -> str:
    return " ".join(text.split())


def plain_blocks(markdown: str) -> tuple[str, str]:
    """(the first block's text when it is a heading else '', the text of all the blocks after it):
    a section's text begins with its own heading, which a result shows apart."""
    cached = _cache.get(markdown)
    if cached is not None:
        _cache.move_to_end(markdown)
        return cached
    blocks: list[str] = []
    first_heading = ""
    in_heading = False
    for token in _MD.parse(markdown):
        if token.type == "heading_open":
            in_heading = True
        elif token.type == "heading_close":
            in_heading = False
        elif token.type == "inline":
            text = _squeezed(_inline_text(token.children or []))
            if in_heading and not blocks and not first_heading:
                first_heading = text
                continue
            if text:
                blocks.append(text)
        elif token.type in ("fence", "code_block"):
            if text := _squeezed(token.content):
                blocks.append(text)
    result = (first_heading, " ".join(blocks))
    _cache[markdown] = result
    while len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return result


def plain_text(markdown: str) -> str:
    """The whole text of `markdown` as a reader sees it, in one line."""
    heading, body = plain_blocks(markdown)
    return f"{heading} {body}".strip() if heading else body


def _word_pattern(words: Iterable[str]) -> re.Pattern[str] | None:
    """Whole words (not a part of a longer run of letters or digits), any case; longest first."""
    unique = tuple(sorted({w for w in words if w.strip()}, key=lambda w: (-len(w), w)))
    return _compiled(unique) if unique else None


@lru_cache(maxsize=256)
def _compiled(words: tuple[str, ...]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(w) for w in words)
    return re.compile(rf"(?<![^\W_])(?:{alternatives})(?![^\W_])", re.IGNORECASE)


def _cut_point(text: str, index: int) -> int:
    """`index`, moved back off a combining mark so that a cut never splits a letter from it."""
    while 0 < index < len(text) and unicodedata.combining(text[index]):
        index -= 1
    return index


def snippet(markdown: str, heading: str, matched: Iterable[str], words: int = 24, lead: int = 6,
            max_chars: int = 240) -> tuple[str, list[list[int]]]:
    """The plain text of a section around its first matched word and the [start, end) of each
    matched word in it (code points). `heading`: the section's heading, left out when the text
    starts with it. At most `words` words, `lead` of them before the first match; at most
    `max_chars` characters. An ellipsis marks where text was cut."""
    first_heading, body = plain_blocks(markdown)
    text = body if first_heading and first_heading == heading.strip() else plain_text(markdown)
    if not text:
        return "", []
    pattern = _word_pattern(matched)
    first = pattern.search(text) if pattern else None
    # The text's words are separated by one space each (plain_blocks squeezes white space): word
    # boundaries are found with str.rfind and str.find, not by listing every word.
    start = text.rfind(" ", 0, first.start()) + 1 if first is not None else 0
    for _ in range(lead if first is not None else 0):
        if start == 0 or text[start - 2] in ".!?":  # a sentence begins here: the snippet too
            break
        start = text.rfind(" ", 0, start - 1) + 1
    end = start
    for _ in range(words):
        found = text.find(" ", end + 1)
        if found < 0:
            end = len(text)
            break
        end = found
    if end - start > max_chars:  # one long run: cut between characters, around the match
        focus = first.start() if first is not None else start
        start = _cut_point(text, max(start, min(focus - max_chars // 4, end - max_chars)))
        end = _cut_point(text, min(end, start + max_chars))
    shown = text[start:end]
    before = ELLIPSIS if start > 0 else ""
    after = ELLIPSIS if end < len(text) else ""
    spans: list[list[int]] = []
    if pattern is not None:
        offset = len(before) - start
        spans = [[m.start() + offset, m.end() + offset] for m in pattern.finditer(text, start, end)]
    return before + shown + after, spans
