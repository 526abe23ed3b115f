"""Bounds on markdown-it-py, as the MyST reader configures it (app/corpus/markdown.py): the same
reading of every page a renderer would finish, in time linear in the page where markdown-it-py's
and mdit-py-plugins' own rules are quadratic on hostile input (tests/test_compose.py, bounded time)."""

from __future__ import annotations

import re
from types import SimpleNamespace

from markdown_it import MarkdownIt
from markdown_it.helpers import parseLinkDestination, parseLinkLabel, parseLinkTitle
from markdown_it.rules_block import StateBlock, lheading
from markdown_it.rules_inline import StateInline

# markdown-it reads a link's text from each `[` to its `]` or the paragraph's end: quadratic on a
# paragraph of `[`. Here a link's text is read this far at most; a longer one stays text.
MAX_LINK_TEXT = 500


def _link_label(state: StateInline, start: int, disable_nested: bool = False) -> int:
    if state.src.find("]", start, start + MAX_LINK_TEXT) < 0:
        return -1
    limit, state.posMax = state.posMax, min(state.posMax, start + MAX_LINK_TEXT)
    try:
        return parseLinkLabel(state, start, disable_nested)
    finally:
        state.posMax = limit


# A link's destination with its parentheses nested two deep at most (CommonMark allows 32, which
# markdown-it-py reads a character at a time: 13 s a MB of `[x](`). A deeper one is no link.
_PLAIN_DESTINATION = r"(?:[^\s\x00-\x1f()\\]|\\.)"
_DESTINATION = re.compile(rf"(?:{_PLAIN_DESTINATION}|\((?:{_PLAIN_DESTINATION}|\({_PLAIN_DESTINATION}*+\))*+\))*+")


def _link_destination(string: str, pos: int, maximum: int) -> object:
    if not string.startswith("<", pos):
        found = _DESTINATION.match(string, pos, maximum)
        end = found.end() if found else pos
        maximum = pos if end < maximum and string[end] == "(" else end  # pos: no destination
    return parseLinkDestination(string, pos, maximum)


_PLAIN = re.compile(r"[^`<{\\&]+")


def _unopened(state: StateInline, silent: bool) -> bool:
    """A `[` or `!` with no `]` in the MAX_LINK_TEXT characters after it opens nothing: it is text,
    and so is what follows it up to a character another rule starts at (every rule was tried at
    each `[` of a page of them: 20 s for 4 MB)."""
    src, pos = state.src, state.pos
    if src[pos] not in "[!":
        return False
    close = state.__dict__.get("next_close")  # the first `]` at or after pos; -1: none
    if close is None or 0 <= close < pos:
        close = state.__dict__["next_close"] = src.find("]", pos)
    end = state.posMax if close < 0 else min(state.posMax, close - MAX_LINK_TEXT)
    plain = _PLAIN.match(src, pos, end) if end > pos else None
    if plain is None:
        return False
    if not silent:
        state.append_pending(plain.group(0))
    state.pos = plain.end()
    return True


# The setext rule walks every paragraph's lines once more: only pages with an underline it alone
# reads (`=`, or one or two `-`) need it.
_UNDERLINE = re.compile(r"^[ \t]*(?:=+|-{1,2})[ \t]*$", re.MULTILINE)


def _setext_heading(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    underlined = state.env.get("underlined")
    if underlined is None:
        underlined = state.env["underlined"] = _UNDERLINE.search(state.src) is not None
    return bool(underlined) and lheading(state, start_line, end_line, silent)


_ROLE = re.compile(r"\{([a-zA-Z0-9_\-+:]+)\}(`+)")


def myst_role(state: StateInline, silent: bool) -> bool:
    """MyST's role, ``{name}`content```, as mdit-py-plugins' myst_role reads it; written here because
    that rule copies the rest of the paragraph at every position it is tried (minutes on a 1 MB
    line). Its content runs to the next run of as many backticks."""
    role = _ROLE.match(state.src, state.pos, state.posMax)
    if role is None:
        return False
    close = state.src.find(role.group(2), role.end() + 1, state.posMax)
    if close < 0:
        return False
    if not silent:
        token = state.push("myst_role", "", 0)
        token.meta, token.content = {"name": role.group(1)}, state.src[role.end():close].replace("\n", " ")
    state.pos = close + len(role.group(2))
    return True


def bounded(md: MarkdownIt) -> MarkdownIt:
    """`md` with the bounded rules: the setext heading rule only on pages with an underline, an
    unopened `[` read as text, link labels and destinations read within their bounds."""
    md.block.ruler.at("lheading", _setext_heading)
    md.inline.ruler.after("text", "unopened", _unopened)
    md.helpers = SimpleNamespace(parseLinkLabel=_link_label, parseLinkDestination=_link_destination,  # type: ignore[assignment]  # a namespace of the same three functions
                                 parseLinkTitle=parseLinkTitle)
    return md
