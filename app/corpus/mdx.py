"""MDX syntax for markdown-it-py: what no Python parser reads, taught to the CommonMark parser.

MDX has no raw HTML, no indented code and no autolinks (markdown.py turns those rules off); it adds
ESM (`import`/`export` blocks), JSX elements and `{…}` JavaScript expressions, read here as MDX's
micromark extensions read them: an element or expression alone on its lines is a block (its
children are Markdown blocks), anywhere else it is inline; a code span that starts first holds a
brace or a tag, an expression or tag that starts first holds backticks. Where each expression ends
is mdx_expressions.py's. What the page shows of each is markdown.py's (one place): of an expression,
a plain string's text only; of an element, its `title` attribute (a card's or a step's title).
An HTML comment, which MDX refuses, is hidden here (the safe reading).
"""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline

from app.corpus.mdx_expressions import balanced_end, expression_end

_ESM = re.compile(r"(?:import|export)(?=[ \t{*])")
# A string may run to the end of the line unclosed: one match, not one scan from every quote.
_STRING_OR_COMMENT = re.compile(
    r""""(?:[^"\\]|\\.)*(?:"|\\?$)|'(?:[^'\\]|\\.)*(?:'|\\?$)|`(?:[^`\\]|\\.)*(?:`|\\?$)|//.*"""
)
_TAG_START = re.compile(r"<(?:/|>|[A-Za-z_$])")
_HEADING_ID = re.compile(r"\{#[A-Za-z0-9_:.\-]+\}[ \t]*$")  # `## Title {#id}`: an anchor, not JavaScript
# A tag is read this far at most: a page of `<a "` (a quote never closed) stays linear.
MAX_TAG_CHARS = 4000


def _bracket_balance(line: str) -> int:
    """Opening minus closing brackets, those in strings and comments left out (`":-("`)."""
    code = _STRING_OR_COMMENT.sub("", line)
    return sum(code.count(c) for c in "({[") - sum(code.count(c) for c in ")}]")


def _expression_end(src: str, start: int, env: MutableMapping[str, Any]) -> int | None:
    """The end of the expression opening at `src[start]`. Where the lexer is lost (a construct it
    does not know) an expression ends where its braces balance, as MDX first finds it, and so does
    every later one; one whose braces never balance is text (MDX refuses the page), and so is every
    later brace: each is read once, in linear time."""
    if env.get("mdx_unbalanced"):
        return None
    end = None if env.get("mdx_lexer_lost") else expression_end(src, start)
    if end is None:
        env["mdx_lexer_lost"] = True
        end = balanced_end(src, start)
        env["mdx_unbalanced"] = end is None
    return end


def tag_end(src: str, start: int, limit: int) -> int | None:
    """The end of the JSX tag opening at `src[start]` (`<`): attribute strings and `{…}` values
    skipped; None when there is none before `limit` or MAX_TAG_CHARS."""
    limit = min(limit, start + MAX_TAG_CHARS)
    position = start + 1
    while position < limit:
        char = src[position]
        if char == ">":
            return position + 1
        if char in "\"'":
            close = src.find(char, position + 1, limit)
            if close < 0:
                return None
            position = close + 1
        elif char == "{":
            end = balanced_end(src, position, limit)
            if end is None:
                return None
            position = end
        elif char == "<":
            return None
        else:
            position += 1
    return None


def _construct(src: str, start: int, limit: int, env: MutableMapping[str, Any], *, inline: bool) -> tuple[str, int] | None:
    """The MDX construct opening at `src[start]` and ending before `limit`, (kind, end), or None:
    an HTML comment (to its end, or `limit` when never closed), an expression or a JSX tag."""
    if src.startswith("<!--", start):
        close = src.find("-->", start + 4, limit)
        return "mdx_comment", limit if close < 0 else close + 3
    if src[start] == "{" and not (inline and _HEADING_ID.match(src, start)):
        end, kind = _expression_end(src, start, env), "mdx_expression"
    elif _TAG_START.match(src, start):
        end, kind = tag_end(src, start, limit), "mdx_jsx"
    else:
        return None
    return None if end is None or end > limit else (kind, end)


def _mdx_inline(state: StateInline, silent: bool) -> bool:
    found = _construct(state.src, state.pos, state.posMax, state.env, inline=True)
    if found is None:
        return False
    if not silent:
        state.push(found[0], "", 0).content = state.src[state.pos:found[1]]
    state.pos = found[1]
    return True


def _mdx_esm(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """`import …`/`export …` at the page's top level, to where its brackets balance (blank lines
    included, as MDX reads it with a JavaScript parser); one that never balances is one line."""
    first = state.bMarks[start_line] + state.tShift[start_line]
    # At the top level only (state.level: parentType is left wrong by a failed lheading).
    if state.level or state.tShift[start_line] or not _ESM.match(state.src, first):
        return False
    if silent:
        return True
    depth, line = 0, start_line
    while line < end_line:
        depth += _bracket_balance(state.src[state.bMarks[line] + state.tShift[line]:state.eMarks[line]])
        if depth <= 0:
            break
        line += 1
    last = line if line < end_line else start_line
    token = state.push("mdx_esm", "", 0)
    token.map = [start_line, last + 1]
    state.line = last + 1
    return True


def _mdx_flow(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Elements, expressions and HTML comments alone on their lines (as many as follow each other
    on them): a block each; its children, on the next lines, are Markdown blocks of their own."""
    src = state.src
    position = state.bMarks[start_line] + state.tShift[start_line]
    limit = state.eMarks[end_line - 1] if end_line > start_line else len(src)
    pieces: list[tuple[str, str]] = []
    while True:
        found = _construct(src, position, limit, state.env, inline=False) if position < limit else None
        if found is None:
            return False
        kind, end = found
        pieces.append((kind, src[position:end]))
        while end < limit and src[end] in " \t":
            end += 1
        if end >= limit or src[end] == "\n":
            break
        position = end
    if silent:
        return True
    last = start_line  # the line the last piece ends on
    while last + 1 < end_line and state.bMarks[last + 1] < end:
        last += 1
    token = state.push("mdx_flow", "", 0)
    token.map, token.meta = [start_line, last + 1], {"pieces": pieces}
    state.line = last + 1
    return True


def _mdx_paragraph(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """markdown-it's paragraph rule, less its one CommonMark rule that MDX does not have: a line
    indented four columns past the paragraph's continues it ("indented code" there), where in MDX
    a fence or an element at any indentation interrupts it (`<Step>` then an indented fence)."""
    terminators = state.md.block.ruler.getRules("paragraph")
    next_line, end_line = start_line + 1, state.lineMax
    old_parent, state.parentType = state.parentType, "paragraph"
    while next_line < end_line and not state.isEmpty(next_line):
        if state.sCount[next_line] >= 0 and any(rule(state, next_line, end_line, True) for rule in terminators):
            break
        next_line += 1
    content = state.getLines(start_line, next_line, state.blkIndent, False).strip()
    state.line = next_line
    state.push("paragraph_open", "p", 1).map = [start_line, next_line]
    inline = state.push("inline", "", 0)
    inline.content, inline.map, inline.children = content, [start_line, next_line], []
    state.push("paragraph_close", "p", -1)
    state.parentType = old_parent
    return True


def mdx_plugin(md: MarkdownIt) -> None:
    md.disable(["code", "html_block", "html_inline", "autolink"])
    md.block.ruler.before("table", "mdx_esm", _mdx_esm)
    # An element or expression alone on its line interrupts a paragraph, as in MDX.
    md.block.ruler.before("table", "mdx_flow", _mdx_flow, {"alt": ["paragraph", "blockquote", "list"]})
    md.block.ruler.at("paragraph", _mdx_paragraph)
    md.inline.ruler.after("text", "mdx_inline", _mdx_inline)
