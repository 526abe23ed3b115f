"""MDX cleanup: what a reader sees as text stays; imports, exports, comments and JSX markup go,
and so does MyST's directive and role markup (myst.py).

Fenced code is kept verbatim with its language. JSX and HTML tags are dropped, their text children
stay, and a `title="..."` attribute stays as text (`<Step title="Install">` → `Install`).
"""

from __future__ import annotations

import bisect
import re

from app.corpus.fences import code_spans, split_fenced
from app.corpus.mdx_expressions import balanced_end, expression_end, indexed_text
from app.corpus.myst import (
    clean_roles,
    directive_name,
    directive_text,
    drop_colon_fence_options,
    drop_hidden_blocks,
)
from app.corpus.snippets import MAX_IMPORT_CHARS

_IMPORT_LINE = re.compile(
    r"""^[ \t]*import[ \t]+(?:[\w$*{}\s,]+[ \t]+from[ \t]+)?["'][^"']+["'][ \t]*;?[ \t]*$"""
)
_EXPORT_START = re.compile(r"^[ \t]*export[ \t]+")
# An attribute value: "…", '…', or {…} with up to three levels of nested braces.
_BRACES = r"\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}"
_ATTRS = rf"""(?:\s+[^\s"'{{}}<>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|{_BRACES}))?|\s*{_BRACES})*"""
_TAG = re.compile(rf"""</?[A-Za-z][\w.:-]*({_ATTRS})\s*/?>""")
_TITLE_ATTR = re.compile(r"""\btitle\s*=\s*(?:"([^"]*)"|'([^']*)'|\{\s*["'`]([^"'`]*)["'`]\s*\})""")
_BLANK_RUNS = re.compile(r"\n[ \t]*\n(?:[ \t]*\n)+")


# MDX's comment is a JavaScript comment in an expression: space may stand inside its braces, as the
# line pass (myst._OPENS, _CLOSES) reads it too: `{ /* note */ }`.
_MDX_COMMENT_OPEN = re.compile(r"\{\s*/\*")
_MDX_COMMENT_CLOSE = re.compile(r"\*/\s*\}")
_HTML_COMMENT_OPEN = re.compile(re.escape("<!--"))
_HTML_COMMENT_CLOSE = re.compile(re.escape("-->"))


def _drop_between(text: str, opening: re.Pattern[str], closing: re.Pattern[str]) -> str:
    """`text` without each `opening`…`closing` (comments); an unclosed one stays, and so does the
    rest. An opening inside an inline code span is code the page shows (`` `{/* note */}` ``), as
    the span starts first; but not in a span whose first backticks a dropped comment held: those
    spans were found in the raw text, and there the safe reading is a comment. Two plain searches,
    not one lazy regex, which rescanned to the end from every unclosed opening."""
    spans: list[tuple[int, int]] | None = None  # found once a comment is: most prose has none
    kept: list[str] = []
    start = search = 0
    while (first := opening.search(text, search)) is not None:
        spans = code_spans(text) if spans is None else spans
        if (span := _code_span_holding(spans, first.start(), start)) is not None:
            search = span[1]  # in code: shown as written
            continue
        last = closing.search(text, first.end())
        if last is None:
            break
        kept.append(text[start:first.start()])
        start = search = last.end()
    kept.append(text[start:])
    return "".join(kept)


_NEVER_SHOWN_OPEN = re.compile(r"<(script|style)(?=[\s>/])", re.IGNORECASE)
_NEVER_SHOWN_CLOSE = {kind: re.compile(rf"</{kind}\s*>", re.IGNORECASE) for kind in ("script", "style")}


def _drop_scripts_and_styles(text: str) -> str:
    """`text` without its `<script>` and `<style>` elements, content included (a page never shows
    it; the tag pass would keep it); an unclosed one stays ("the <style> tag"). Once a kind is
    found unclosed, none after it is closed either: its closing tag is not searched for again."""
    kept: list[str] = []
    start = position = 0
    unclosed: set[str] = set()
    while (opening := _NEVER_SHOWN_OPEN.search(text, position)) is not None:
        kind = opening.group(1).lower()
        closing = None if kind in unclosed else _NEVER_SHOWN_CLOSE[kind].search(text, opening.end())
        if closing is None:
            unclosed.add(kind)
            position = opening.end()
            continue
        kept.append(text[start:opening.start()])
        start = position = closing.end()
    kept.append(text[start:])
    return "".join(kept)


def _drop_imports_and_exports(text: str) -> str:
    """The text without its import lines and export blocks (an export runs until its brackets
    balance, blank lines included, as MDX reads it with a JavaScript parser). An export whose
    brackets never balance was not code: only its first line goes, the page after it stays."""
    lines = text.split("\n")
    kept: list[str] = []
    swallowed: list[str] = []  # the lines of the export block being read
    depth = 0
    for line in lines:
        if swallowed:
            swallowed.append(line)
            depth += _bracket_balance(line)
            if depth <= 0:
                swallowed = []
            continue
        if len(line) <= MAX_IMPORT_CHARS and _IMPORT_LINE.match(line):
            continue
        if _EXPORT_START.match(line):
            depth = _bracket_balance(line)
            swallowed = [line] if depth > 0 else []
            continue
        kept.append(line)
    return "\n".join(kept + swallowed[1:])


# A string may run to the end of the line unclosed: one match, not one scan from every quote.
_STRING_OR_COMMENT = re.compile(
    r""""(?:[^"\\]|\\.)*(?:"|\\?$)|'(?:[^'\\]|\\.)*(?:'|\\?$)|`(?:[^`\\]|\\.)*(?:`|\\?$)|//.*"""
)


def _bracket_balance(line: str) -> int:
    """Opening minus closing brackets, those in strings and comments left out (`":-("`)."""
    code = _STRING_OR_COMMENT.sub("", line)
    return sum(code.count(c) for c in "({[") - sum(code.count(c) for c in ")}]")


def _replace_tag(match: re.Match[str]) -> str:
    title = _TITLE_ATTR.search(match.group(1) or "")
    if title and not match.group(0).startswith("</"):
        return next(g for g in title.groups() if g is not None)
    return ""


# Braces that open no expression: TeX math (`$\\textbf{x}$`, `$$…$$`, which MDX's math plugin
# reads as math; as in pandoc, `$` then no space opens it and no space then `$`, not before a
# digit, closes it: "from $5 to $10" is no math), MyST markup that the .mdx path reads too (a
# colon fence's `:::{tip}`, kept whole for the chunker; a heading's `{#id}`), a link's destination
# (`[x](/api/{id})`), and a JSX tag's attributes, which the tag pass reads.
_NOT_EXPRESSIONS = re.compile(
    "|".join((
        r"\$\$(?:(?!\n[ \t]*\n).)*?\$\$", r"\$[^\s$](?:[^$\n]*[^\s$])?\$(?!\d)",
        r"^[ \t>]*:{3,}[ \t]*\{[^{}\n]*\}", r"\{#[A-Za-z0-9_:.\-]+\}[ \t]*$", r"\]\([^()\s]*\)", _TAG.pattern,
    )),
    re.MULTILINE | re.DOTALL,
)


def _drop_expressions(text: str) -> str:
    """`text` without its MDX expressions, a plain string's text kept (app/corpus/mdx_expressions.py).
    A brace is text where a code span that starts in the text kept holds it (an expression that
    starts first holds the backticks in it instead), in math, markup and tags (_NOT_EXPRESSIONS)
    that start in the text kept, outside code and unescaped, and escaped itself (`\\{`). Where the
    lexer is lost (a construct it does not know), an expression ends where its braces balance, as
    MDX first finds it, and so does every later one: a lost lexer may have read to the page's end.
    One whose braces never balance is text (MDX refuses the page), and so is every brace after it."""
    if "{" not in text:
        return text
    protected = [m.span() for m in _NOT_EXPRESSIONS.finditer(text)]
    spans = code_spans(text)
    kept: list[str] = []
    start = position = 0
    lexer_lost = False
    while (brace := text.find("{", position)) >= 0:
        if _escaped(text, brace):
            position = brace + 1
            continue
        span = _code_span_holding(spans, brace, start)
        if span is None:
            span = next((s for s in _covering(protected, brace) if s[0] >= start and not _escaped(text, s[0])
                         and _code_span_holding(spans, s[0], start) is None), None)
        if span is not None:
            position = span[1]
            continue
        end = None if lexer_lost else expression_end(text, brace)
        if end is None:
            lexer_lost = True
            end = balanced_end(text, brace)
            if end is None:
                break
        kept += [text[start:brace], indexed_text(text[brace:end])]
        start = position = end
    kept.append(text[start:])
    return "".join(kept)


def _escaped(text: str, index: int) -> bool:
    """Whether an odd run of backslashes stands before `text[index]` (`\\{` is a brace escaped,
    `\\\\{` a backslash escaped and then a brace)."""
    backslashes = 0
    while backslashes < index and text[index - backslashes - 1] == "\\":
        backslashes += 1
    return backslashes % 2 == 1


def _covering(spans: list[tuple[int, int]], index: int) -> list[tuple[int, int]]:
    """The span of `spans` (sorted, not overlapping) that holds `index`, as a list of none or one."""
    at = bisect.bisect_right(spans, (index, float("inf"))) - 1
    return [spans[at]] if at >= 0 and index < spans[at][1] else []


def _code_span_holding(spans: list[tuple[int, int]], index: int, kept_from: int) -> tuple[int, int] | None:
    """The code span of `spans` (code_spans of the raw text) that holds `text[index]`, if it starts
    in the text kept (from `kept_from` on); a span whose first backticks a dropped comment or
    expression held is none: the spans were found in the raw text."""
    return next((s for s in _covering(spans, index) if s[0] >= kept_from), None)


def _clean_prose(text: str, *, mdx: bool) -> str:
    """Prose as the reader sees it; `mdx` for an `.mdx` page, where braces open JavaScript
    expressions (in a `.md` page they are text)."""
    text = drop_colon_fence_options(clean_roles(text))  # MyST (myst.py), before inline code is hidden
    text = _drop_imports_and_exports(text)  # ESM, whose braces are no expressions
    if mdx:  # then expressions: a comment, a tag or backticks in one are the expression's
        text = _drop_expressions(text)
    text = _drop_between(text, _MDX_COMMENT_OPEN, _MDX_COMMENT_CLOSE)
    text = _drop_between(text, _HTML_COMMENT_OPEN, _HTML_COMMENT_CLOSE)
    text = _drop_scripts_and_styles(text)
    # Inline code may show tags (`<Note>`) as literal text: hide it from the tag pass.
    found = code_spans(text)
    spans = [text[start:end] for start, end in found]
    pieces, last = [], 0
    for number, (start, end) in enumerate(found):
        pieces += [text[last:start], f"\x00{number}\x00"]
        last = end
    text = _TAG.sub(_replace_tag, "".join(pieces) + text[last:])
    text = re.sub(r"\x00(\d+)\x00", lambda m: spans[int(m.group(1))], text)
    return "\n".join(line.rstrip() for line in text.split("\n"))


# Directives inside directives are unwrapped this deep; deeper ones stay as written (a hostile page
# of thousands of nested openings must not exhaust the stack, nor take quadratic time), less any
# hidden block in them, which would otherwise hide below the depth read.
_MAX_DIRECTIVE_DEPTH = 8


def _clean_segments(text: str, myst: bool, depth: int = 0) -> tuple[str, bool]:
    """The text cleaned, and whether a comment is left open at its end. A comment a directive's
    body leaves open stays open on the built page: what follows the directive is hidden too."""
    parts = []
    shown_text, left_open = drop_hidden_blocks(text, myst_comments=myst)
    for segment in split_fenced(shown_text):
        if not segment.is_code:
            parts.append(_clean_prose(segment.text, mdx=not myst))
            continue
        if directive_name(segment.text.split("\n", 1)[0]) is None:
            parts.append(segment.text)
            continue
        if depth >= _MAX_DIRECTIVE_DEPTH:  # as written, but hidden blocks found without reading fences
            shown, body_open = drop_hidden_blocks(segment.text, myst_comments=myst, fences_are_code=False)
            parts.append(shown)
        else:  # a MyST directive: its text (which may hold fences and directives of its own) or code
            shown, is_code = directive_text(segment.text)
            shown, body_open = (shown, False) if is_code else _clean_segments(shown, myst, depth + 1)
            parts.append(shown)
        if body_open:
            return "".join(parts), True
    return "".join(parts), left_open


def clean_mdx(text: str, *, myst: bool = False) -> str:
    """The page body as plain Markdown text: prose cleaned, code fences untouched; `myst` for a
    `.md` page, whose `%` lines are MyST comments.

    NUL characters are dropped first: they are never text (Postgres cannot even store them), and
    with none left the NUL-delimited placeholders of `_clean_prose` cannot collide with the page.
    """
    text = text.replace("\x00", "")
    cleaned = _clean_segments(text, myst)[0]
    cleaned = _BLANK_RUNS.sub("\n\n", cleaned)
    return cleaned.strip("\n") + "\n" if cleaned.strip() else ""
