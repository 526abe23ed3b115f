"""What a rendered page shows, as Markdown: the page is parsed by markdown-it-py (CommonMark, GFM
tables, footnotes, MyST's blocks, roles and colon fences; for `.mdx`, mdx.py's ESM, JSX and
expressions instead of raw HTML), and its tokens are written back as plain Markdown, in the order
the page renders them, keeping only what the page shows.

The hidden-text rule is here, in one place (`_Writer`): text is written only where the rendered
page shows it. A comment, a `<script>`/`<style>` element or an unfinished tag opened in raw HTML
hides every later token until the HTML closes it, as in the browser, whatever Markdown lies
between (`_Browser`); a fence's info string, table cells past the header's columns, link reference
definitions, MyST comments and targets, and directives not on the page are never written; an MDX
expression shows only a plain string's text. Code spans, fences, emphasis and links keep their
Markdown. The page comes out as blocks (`Block`): the chunker takes its sections from the heading
blocks and never cuts a `code` block (a fence or a whole `:::` callout); it reads no Markdown again.
"""

from __future__ import annotations

import gc
import html
import logging
import re
from functools import cache
from types import SimpleNamespace
from typing import NamedTuple

from markdown_it import MarkdownIt
from markdown_it.helpers import parseLinkDestination, parseLinkLabel, parseLinkTitle
from markdown_it.rules_block import StateBlock, lheading
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.colon_fence import colon_fence_plugin
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.myst_blocks import myst_block_plugin

from app.corpus import myst
from app.corpus.mdx import mdx_plugin
from app.corpus.mdx_expressions import indexed_text

# Containers nest this deep at most; markdown-it leaves deeper content out (hides it), and the
# writer's recursion stays far from Python's limit. No docs page nests that far.
MAX_NESTING = 64
_MAX_DIRECTIVE_DEPTH = 8  # directives inside directives; deeper ones show nothing (hostile pages)
_LANGUAGE = re.compile(r"[\w.+#-]{1,40}")  # a fence's language; the rest of its info is never shown
_RAW_ELEMENTS = ("script", "style", "noscript")  # what a browser never shows, to its end tag
_LINE_TAGS = frozenset("br p div tr li dt dd h1 h2 h3 h4 h5 h6 table thead tbody ul ol pre blockquote hr "
                       "section details summary figure figcaption".split())
_TAG_NAME = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)")
# What ends each state of the HTML that hides text: a comment (`-->`, or `--!>` as browsers read
# it), a bogus comment (`<!x`, `<?x`), a tag (or its `=`: a quote opens a value only after one), a
# quoted attribute value.
_STATE_END = {"comment": re.compile(r"--!?>"), "bogus": re.compile(">"), "tag": re.compile(r"[>=]"),
              'tag"': re.compile('"'), "tag'": re.compile("'")}
_SPACES = re.compile(r"[\t\n\f\r ]*")
# In a script, `<!--` escapes `</script>` only when a `<script` follows it (the HTML spec's script
# data escaped and double escaped states): `<script><!--<script></script>hidden</script>`.
_SCRIPT_MARKS = re.compile(r"<!--|-->|<(/?)script(?=[\s/>])", re.IGNORECASE)
_BACKTICK_RUNS = re.compile(r"`+")


# markdown-it reads a link's text from each `[` to its `]` or the paragraph's end: quadratic on a
# paragraph of `[`. Here a link's text is read this far at most; a longer one stays text, which
# hides nothing (its comments and code are read as anywhere else), and the page shows it anyway.
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
# markdown-it-py reads a character at a time: 50 µs for each `[x](` of a line of them, 13 s a MB).
# A deeper one, or one never closed, is no link: its text stays text, which hides nothing.
_PLAIN_DESTINATION = r"(?:[^\s\x00-\x1f()\\]|\\.)"
_DESTINATION = re.compile(rf"(?:{_PLAIN_DESTINATION}|\((?:{_PLAIN_DESTINATION}|\({_PLAIN_DESTINATION}*+\))*+\))*+")


def _link_destination(string: str, pos: int, maximum: int) -> object:
    if not string.startswith("<", pos):
        end = _DESTINATION.match(string, pos, maximum).end()
        maximum = pos if end < maximum and string[end] == "(" else end  # pos: no destination
    return parseLinkDestination(string, pos, maximum)


# Where markdown-it's text rule stops, to try every rule: only where one of ours may start (code,
# HTML or JSX, links, images and footnotes, expressions, roles and MDX comments, escapes, entities;
# emphasis is not parsed), and at `]`, where a link's text ends. Its default stops at every `-`,
# `*`, `:`, `_` and line end too.
_TERMINATORS = re.compile(r"[`<\[\]{\\&!]")
_PLAIN = re.compile(r"[^`<{\\&]+")


def _broken(text: str) -> str:
    """Text with its line breaks as written, less the spaces and tabs before each (a hard break's).
    A line's indentation stays, as in the source: code that is really a paragraph (scraped pages)
    keeps its shape, and the sections around it their sizes. (A regex for this rescanned a long run
    of spaces from each of them.)"""
    if "\n" not in text:
        return text
    lines = text.split("\n")
    return "\n".join([*(line.rstrip(" \t") for line in lines[:-1]), lines[-1]])


def _unopened(state: StateInline, silent: bool) -> bool:
    """A `[` or `!` with no `]` in the MAX_LINK_TEXT characters after it opens nothing: it is text,
    and so is what follows it up to a character another rule starts at. Every rule was tried at
    each `[` of a page of them, one by one (20 s for 4 MB)."""
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


# markdown-it-py's block rules call LOGGER.debug on entry, each rule at each line (a tenth of a
# page's time, for a message nobody reads): their loggers' debug is a no-op that takes any arguments.
for _rule in ("blockquote", "code", "fence", "heading", "hr", "html_block", "lheading", "list", "paragraph",
              "reference"):
    logging.getLogger(f"markdown_it.rules_block.{_rule}").debug = "".format  # type: ignore[method-assign]

# A line of `=` (or one or two `-`) under a paragraph makes it a heading whose underline the page
# does not show. Only those need the setext rule, which otherwise walks every paragraph's lines
# once more: a `---` line (three or more) is a thematic break that ends the paragraph, which the
# writer writes the same, a paragraph and nothing.
_UNDERLINE = re.compile(r"^[ \t]*(?:=+|-{1,2})[ \t]*$", re.MULTILINE)


def _setext_heading(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    underlined = state.env.get("underlined")
    if underlined is None:
        underlined = state.env["underlined"] = _UNDERLINE.search(state.src) is not None
    return underlined and lheading(state, start_line, end_line, silent)


@cache
def parser(mdx: bool) -> MarkdownIt:
    # Emphasis (and strikethrough, off in commonmark) is not parsed: it hides nothing, and its
    # markers stay in the text as written.
    md = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING}).enable("table").disable("emphasis")
    md.block.ruler.at("lheading", _setext_heading)
    md.inline.terminator_re = _TERMINATORS
    md.inline.ruler.disable("newline")  # a line break is written as the text's "\n" (_broken)
    md.inline.ruler.after("text", "unopened", _unopened)
    md.helpers = SimpleNamespace(parseLinkLabel=_link_label, parseLinkDestination=_link_destination,
                                 parseLinkTitle=parseLinkTitle)
    # GFM has no inline footnotes (`^[…]`): `^[a-z]{1,64}$` in a table is a regular expression.
    md.use(colon_fence_plugin).use(footnote_plugin, inline=False).use(deflist_plugin)
    if mdx:
        md.use(mdx_plugin)  # `{name}` before code is an MDX expression there, `%` is text
    else:
        md.use(myst_block_plugin)
        md.inline.ruler.before("backticks", "myst_role", _myst_role)
        md.inline.ruler.after("text", "mdx_comment", _mdx_comment_in_md)
    return md


_ROLE = re.compile(r"\{([a-zA-Z0-9_\-+:]+)\}(`+)")


def _myst_role(state: StateInline, silent: bool) -> bool:
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


_MDX_COMMENT_OPEN = re.compile(r"\{\s*/\*")
_MDX_COMMENT_CLOSE = re.compile(r"\*/\s*\}")


def _mdx_comment_in_md(state: StateInline, silent: bool) -> bool:
    """`{/* … */}` in a `.md` page's paragraph is hidden though CommonMark shows it: Mintlify builds
    `.md` pages as MDX (the safe reading). Each paragraph is searched for closings once."""
    opening = _MDX_COMMENT_OPEN.match(state.src, state.pos)
    if opening is None or state.env.get("mdx_comment_open_from", -1) == state.src:
        return False
    closing = _MDX_COMMENT_CLOSE.search(state.src, opening.end(), state.posMax)
    if closing is None:
        state.env["mdx_comment_open_from"] = state.src  # none closes in this paragraph
        return False
    if not silent:
        state.push("mdx_comment", "", 0)
    state.pos = closing.end()
    return True


class _Browser:
    """The HTML of the page as a browser reads it, fed in page order: whether it is in a comment,
    a raw element (`<script>`, `<style>`, …), a `<template>`, a bogus comment (`<!x`, `<?x`) or a
    tag not yet closed: then nothing is shown. Written by hand: Python's html.parser does not read comments
    as browsers do (`<!-->`, `--!>`), and only the few states that hide text matter here."""

    def __init__(self) -> None:
        self.state: str | None = None  # None: text is shown
        self._tag: tuple[str, bool] = ("", False)  # the open tag's name, and whether it closes
        self._raw: str | None = None  # the raw element the tag being read opens or is in
        self._script = "data"  # in a script: "data", "escaped" (after `<!--`) or "double" (`<!--<script>`)
        # `<template>`s open: their content is parsed as HTML (comments, tags, nested templates), never shown.
        self._templates = 0

    @property
    def hidden(self) -> bool:
        return self.state is not None or self._raw is not None or self._templates > 0

    def feed(self, fragment: str) -> str:
        """The text `fragment` shows (its tags and entities read), and the state it leaves."""
        shown: list[str] = []
        position = 0
        while position < len(fragment):
            if self.state is None and self._raw is not None:  # to `</script`, `</style`, …
                closing = self._raw_end(fragment, position)
                if closing is None:
                    break
                self.state, self._tag, position = "tag", (self._raw, True), closing
                continue
            if self.state is None:
                opening = fragment.find("<", position)
                if not self._templates:
                    shown.append(fragment[position:] if opening < 0 else fragment[position:opening])
                if opening < 0:
                    break
                position = self._open(fragment, opening, shown)
                continue
            if self.state == "tag=":  # an attribute's value: quoted, or to a space or `>`
                position = _SPACES.match(fragment, position).end()
                if position < len(fragment):
                    quoted = fragment[position] in "\"'"
                    self.state, position = ("tag" + fragment[position], position + 1) if quoted else ("tag", position)
                continue
            found = _STATE_END[self.state].search(fragment, position)
            if found is None:
                break
            position = found.end()
            if self.state == "tag" and found.group(0) == "=":
                self.state = "tag="
            elif self.state == "tag":
                self.state = None
                name, closes = self._tag
                self._raw = None if closes else (name if name in _RAW_ELEMENTS else self._raw)
                self._script = "data"
                if name == "template":
                    self._templates = max(0, self._templates + (-1 if closes else 1))
                # A block's or a cell's tag parts its text from the next one's, as on the page.
                elif not self._templates:
                    shown.append("\n" if name in _LINE_TAGS else " " if name in ("td", "th") else "")
            else:  # a comment or a bogus comment ends; a quoted value, and the tag goes on
                self.state = "tag" if self.state.startswith("tag") else None
        return html.unescape("".join(shown))

    def _raw_end(self, fragment: str, position: int) -> int | None:
        """Where the raw element's end tag name ends in `fragment`; None: not in it."""
        if self._raw != "script":
            closing = re.compile(rf"</{self._raw}(?=[\s/>])", re.IGNORECASE).search(fragment, position)
            return None if closing is None else closing.end()
        while (mark := _SCRIPT_MARKS.search(fragment, position)) is not None:
            position = mark.end()
            if mark.group(0) == "<!--":
                if self._script == "data":  # `<!-->` escapes nothing: its `-->` ends the escape
                    self._script, position = "escaped", mark.start() + 2
            elif mark.group(0) == "-->":
                self._script = "data"
            elif mark.group(1):  # `</script`
                if self._script != "double":
                    return position
                self._script = "escaped"
            elif self._script == "escaped":  # `<script`
                self._script = "double"
        return None

    def _open(self, fragment: str, at: int, shown: list[str]) -> int:
        if fragment.startswith("<!--", at):
            if fragment.startswith((">", "->"), at + 4):  # `<!-->`, `<!--->`: empty comments
                return fragment.index(">", at + 4) + 1
            self.state = "comment"
            return at + 4
        if (tag := _TAG_NAME.match(fragment, at)) is not None:
            self.state, self._tag = "tag", (tag.group(2).lower(), tag.group(1) == "/")
            return tag.end()
        if fragment.startswith(("<!", "<?", "</"), at):
            self.state = "bogus"
            return at + 2
        if not self._templates:
            shown.append("<")
        return at + 1

    def jsx(self, tag: str) -> None:
        """An MDX element's tag: a lowercase `<script>` or `<style>` is the HTML element."""
        found = _TAG_NAME.match(tag)
        if found is not None and found.group(2)[0].islower() and not tag.endswith("/>"):
            self.feed(f"<{found.group(1)}{found.group(2)}>")


# Elements a browser shows inside the line (their text runs on into the next word's): no break at their tags.
_INLINE_TAGS = frozenset("a abbr b bdi bdo cite code data del dfn em font i img ins kbd mark q s samp small span "
                         "strong sub sup time u var wbr".split())
# Inside a paragraph's text, where a JSX tag stood (NUL never reaches the writer: shown_blocks drops
# it): a line break unless the source breaks the line there, and a space between two words it would
# glue, never before a closing mark ("<Tooltip>repository</Tooltip>.").
_SOFT = "\x00"
_SOFT_LINE, _SOFT_SPACE = "\x00L", "\x00S"
_LINE_BREAKS = re.compile(r"(\n[ \t]*)?(?:\x00L)+([ \t]*\n)?")
_SOFT_BREAKS = re.compile(r"(?<=\S)(?:\x00S)+(?=[^\s.,;:!?)\]}'\"’”])")
# Whether an inline JSX element parts its text from its neighbours' (CHUNKER_VERSION 5).
_JSX_PARTS_TEXT = True


def _jsx_separator(tag: str) -> str:
    """What an inline JSX tag stands for between texts: a line break for a block's or a line's tag
    (`<br />`, `<div>`, `<p>`, `<tr>`, as the HTML of a `.md` page), a soft break for a cell, a
    component (`<Tab>`, `<Card>`, `<Tooltip>`) or any other element, nothing for an element shown
    inside the line (`<span>`, `<a>`, `<strong>`, `<code>`) or a fragment (`<>`)."""
    found = _TAG_NAME.match(tag)
    if found is None:
        return ""
    name = found.group(2)
    if name in _LINE_TAGS:
        return _SOFT_LINE
    return "" if name in _INLINE_TAGS else _SOFT_SPACE


_TITLE = re.compile(r"""\btitle\s*=\s*(?:"([^"]*)"|'([^']*)'|\{\s*["'`]([^"'`]*)["'`]\s*\})""")


# Chunk text is Markdown again for the page view and the chat's excerpts: text the page shows as
# text (a `# comment` line of a paragraph, a fence line in HTML) is written escaped, as Markdown does,
# so that neither takes it for a heading, a fence or a callout.
_STRUCTURE = re.compile(r"^([ \t]*)(?=#|`{3}|~{3}|:{3})", re.MULTILINE)


def _as_text(text: str) -> str:
    return _STRUCTURE.sub(r"\1\\", text)


class Block(NamedTuple):
    """A block of the shown page: `heading` (of `level`), `code` (a fence or a whole `:::` callout,
    never cut), or `text` (cut between paragraphs when its section is long)."""

    text: str
    kind: str = "text"
    level: int = 0


def _code_span(content: str) -> str:
    ticks = "`" * (max(map(len, _BACKTICK_RUNS.findall(content)), default=0) + 1)
    pad = " " if content.startswith("`") or content.endswith("`") else ""
    return f"{ticks}{pad}{content}{pad}{ticks}"


def fenced(language: str, content: str) -> str:
    """A code fence that no line of `content` closes."""
    ticks = "`" * max(3, max(map(len, _BACKTICK_RUNS.findall(content)), default=0) + 1)
    return f"{ticks}{language}\n{content}{'' if content.endswith(chr(10)) or not content else chr(10)}{ticks}"


def _prefixed(text: str, first: str, rest: str) -> str:
    lines = text.split("\n")
    return "\n".join([first + lines[0]] + [(rest + line) if line else rest.rstrip() for line in lines[1:]])


class _Node:
    """A block token with the blocks it holds (markdown-it's _Node took a quarter of the time)."""

    __slots__ = ("children", "token", "type")

    def __init__(self, token: Token | None) -> None:
        self.token = token
        self.type = token.type.removesuffix("_open") if token is not None else "root"
        self.children: list[_Node] = []

    def __getattr__(self, name: str) -> object:  # info, content, meta, attrs, tag: the token's
        return getattr(self.token, name)


def _tree(tokens: list[Token]) -> list[_Node]:
    stack = [_Node(None)]
    for token in tokens:
        if token.nesting == -1:
            stack.pop()
            continue
        node = _Node(token)
        stack[-1].children.append(node)
        if token.nesting == 1:
            stack.append(node)
    return stack[0].children


class _Writer:
    def __init__(self, mdx: bool) -> None:
        self.mdx = mdx
        self.browser = _Browser()
        self._lines: list[str] = []

    def page(self, text: str, *, depth: int = 0, in_directive: bool = False) -> list[Block]:
        lines, self._lines = self._lines, text.split("\n")  # to tell a closed fence from one left open
        try:
            return self._blocks(_tree(parser(self.mdx).parse(text, {})), depth, in_directive)
        finally:
            self._lines = lines

    def _closed(self, node: _Node) -> bool:
        start, end = node.map or (0, 0)
        last = self._lines[end - 1].strip() if end - start > 1 and end <= len(self._lines) else ""
        return last[:1] == node.markup[:1] and set(last) == {last[:1]} and len(last) >= len(node.markup)

    def _blocks(self, nodes: list[_Node], depth: int, in_directive: bool) -> list[Block]:
        return [Block(block.text.strip("\n"), block.kind, block.level) for node in nodes
                for block in self._block(node, depth, in_directive) if block.text.strip()]

    def _items(self, items: list[tuple[str, list[Block]]], loose: bool) -> list[Block]:
        """List items or footnotes (marker, blocks) as blocks: each item's first block after its
        marker, the others indented; a fence stays a block of its own. Items of a tight list are
        one block, as its lines are one paragraph's."""
        out: list[Block] = []
        for marker, blocks in items:
            indent = " " * len(marker) if marker[0] != "[" else "    "
            for number, block in enumerate(blocks):
                text = _prefixed(block.text, marker if number == 0 else indent, indent)
                if number == 0 and not loose and out and out[-1].kind == "text" and block.kind != "code":
                    out[-1] = Block(f"{out[-1].text}\n{text}")
                else:
                    out.append(Block(text, "code" if block.kind == "code" else "text"))
        return out

    def _block(self, node: _Node, depth: int, in_directive: bool) -> list[Block]:
        kind = node.type
        if kind in ("paragraph", "dt"):
            return [Block(_as_text(self._inline(node.children[0])))]
        if kind == "heading":
            text = self._inline(node.children[0], one_line=True)
            # Sections start at `#` headings, as documented: an underlined (setext) heading stays
            # text in its section, and MyST shows a heading in a directive as a bold title.
            if node.markup in ("=", "-") or not text:
                return [Block(_as_text(text))]
            level = int(node.tag[1])
            return [Block(f"**{text}**")] if in_directive else [Block(f"{'#' * level} {text}", "heading", level)]
        if kind in ("bullet_list", "ordered_list"):
            start = int(node.attrs.get("start", 1)) if kind == "ordered_list" else 0
            # A loose list (items apart by blank lines) stays loose: a long one is split between items.
            loose = any(child.type == "paragraph" and not child.token.hidden
                        for item in node.children for child in item.children)
            return self._items([(f"{number}. " if kind == "ordered_list" else "- ",
                                 self._blocks(item.children, depth, in_directive))
                                for number, item in enumerate(node.children, start=start)], loose)
        if kind == "blockquote":
            inner = "\n\n".join(block.text for block in self._blocks(node.children, depth, in_directive))
            return [Block(_prefixed(inner, "> ", "> "))]
        if kind in ("fence", "code_block", "colon_fence"):
            return self._fence(node, depth)
        if kind == "html_block":
            return [Block(_as_text(self.browser.feed(node.content)))]
        if kind == "table":
            return [Block(self._table(node))]
        if kind == "footnote_block":
            return self._items([(f"[^{footnote.meta.get('label', footnote.meta.get('id', 0) + 1)}]: ",
                                 self._blocks(footnote.children, depth, in_directive)) for footnote in node.children],
                               loose=True)
        if kind in ("dl", "dd"):
            return self._blocks(node.children, depth, in_directive)
        if kind == "mdx_flow":
            return [Block(self._mdx(piece_kind, piece)) for piece_kind, piece in node.meta["pieces"]]
        # Never shown: a thematic break, a link reference definition (not a token), MyST's `%`
        # comments, `(label)=` targets and `+++` breaks, MDX's imports and exports; and, failing
        # closed, any token this writer does not know.
        return []

    def _mdx(self, kind: str, source: str) -> str:
        if kind == "mdx_jsx":
            self.browser.jsx(source)
            title = _TITLE.search(source) if not source.startswith("</") else None
            return "" if title is None or self.browser.hidden else next(g for g in title.groups() if g is not None)
        if kind == "mdx_expression" and not self.browser.hidden:
            return indexed_text(source)
        return ""  # an HTML comment (MDX refuses the page: hidden, the safe reading)

    def _inline(self, node: _Node, *, one_line: bool = False) -> str:
        links: list[str] = []  # the closing `](href)` of each link open
        written = "".join([self._inline_token(token, links) for token in node.token.children or []])
        if _SOFT in written:  # where JSX tags stood: breaks that keep words apart, never doubled
            if one_line:  # a heading stays one line (its anchor is made from it)
                written = written.replace(_SOFT_LINE, _SOFT_SPACE)
            written = _LINE_BREAKS.sub(lambda m: (m.group(1) or "") + (m.group(2) or "") or "\n", written)
            written = _SOFT_BREAKS.sub(" ", written).replace(_SOFT_SPACE, "")
        return written.strip()

    def _inline_token(self, token: Token, links: list[str]) -> str:
        kind = token.type
        if kind == "html_inline":
            return self.browser.feed(token.content)
        if kind == "mdx_jsx":
            text = self._mdx(kind, token.content)
            if self.browser.hidden or not _JSX_PARTS_TEXT:
                return text
            # A JSX element inside a paragraph parts its text from its neighbours' as the page does
            # ("documentation<br />Configure", "<td>$10</td><td>Build Tier 1</td>", a tab's title and
            # its text): the indexed words stay words.
            separator = _jsx_separator(token.content)
            return f"{separator}{text}{separator}" if text else separator
        if kind in ("mdx_expression", "mdx_comment"):
            return self._mdx(kind, token.content)
        if self.browser.hidden:
            return ""
        if kind == "text":
            return _broken(token.content)
        if kind == "hardbreak":  # a `\` ending a line (the newline rule is off: line ends are in the text)
            return "\n"
        if kind == "code_inline":
            return _code_span(token.content)
        if kind == "link_open":
            links.append("" if token.markup == "autolink" else f"]({token.attrGet('href')})")
            return "" if token.markup == "autolink" else "["
        if kind == "link_close":
            return links.pop() if links else ""
        if kind == "image":
            return f"![{token.content}]({token.attrGet('src')})"
        if kind == "myst_role":  # a link role shows its text, any other its text as code
            text = myst.role_text(token.content)
            return text if myst.name(token.meta["name"]) in myst.LINK_ROLES else _code_span(text)
        if kind == "footnote_ref":
            return f"[^{token.meta.get('label', token.meta.get('id', 0) + 1)}]"  # `^[…]` has no label
        return ""

    def _fence(self, node: _Node, depth: int) -> list[Block]:
        if self.browser.hidden:
            return []
        info = node.info.strip()
        directive = myst.DIRECTIVE.fullmatch(info)
        if directive is None and node.type != "colon_fence":
            language = info.split()[0] if info else ""
            return [Block(fenced(language if _LANGUAGE.fullmatch(language) else "", node.content), "code")]
        name = myst.name(directive.group(1)) if directive else (info.split() or [""])[0].lower()
        argument = directive.group(2).strip() if directive else info[len(name):].strip()
        colons = node.type == "colon_fence"
        # MyST refuses `:::{eval-rst}` (a colon fence is for Markdown content): nothing is shown.
        if name in myst.NOT_ON_THE_PAGE or (name == "eval-rst" and colons):
            return []
        body = myst.directive_body(node.content, name)
        if name in myst.TEXT or (colons and name not in myst.CODE_WITH_LANGUAGE_ARGUMENT):
            if depth >= _MAX_DIRECTIVE_DEPTH:
                return []
            # One left open runs to the end of the page on the site: then its headings stay sections
            # (a converted notebook's unclosed `:::{note}` must not swallow the page's last sections).
            closed = self._closed(node)
            inner = self.page(body, depth=depth + 1, in_directive=closed)
            shown = argument if argument and name not in myst.ARGUMENT_NOT_SHOWN else ""
            if not colons or not closed:
                return [Block(shown), *inner]
            # A `:::` callout stays one block (the chunker keeps it whole), its argument when shown.
            opening = (f":::{{{name}}}" if directive else f":::{name}") + (f" {shown}" if shown else "")
            return [Block("\n".join([opening, "\n\n".join(block.text for block in inner), ":::"]), "code")]
        if name == "eval-rst":
            body = myst.shown_rst(body)
        language = (argument.split() or [""])[0] if name in myst.CODE_WITH_LANGUAGE_ARGUMENT else name
        return [Block(fenced(language if _LANGUAGE.fullmatch(language) else "", body), "code")]

    def _table(self, node: _Node) -> str:
        rows = []
        for section in node.children:
            for row in section.children:
                # markdown-it writes as many cells as the header has: the site shows no more.
                cells = [self._inline(cell.children[0]).replace("|", "\\|").replace("\n", " ") for cell in row.children]
                rows.append(f"| {' | '.join(cells)} |")
                if section.type == "thead":
                    rows.append("|" + "---|" * len(cells))
        return "\n".join(rows)


def shown_blocks(text: str, *, mdx: bool) -> list[Block]:
    """The page body as the blocks of what its rendered page shows; `mdx` for an `.mdx` page.

    NUL characters are dropped first: they are never text (Postgres cannot even store them)."""
    # A parse allocates a token per construct (eight a table row), none of which needs the cycle
    # collector: it rescanned them all as they grew, over half the time of a long table.
    collecting = gc.isenabled()
    gc.disable()
    try:
        blocks = _Writer(mdx).page(text.replace("\x00", ""))
    finally:
        if collecting:
            gc.enable()
    return [Block("\n".join([line.rstrip() for line in block.text.split("\n")]), block.kind, block.level)
            for block in blocks]


def shown_markdown(text: str, *, mdx: bool) -> str:
    """The page body as the Markdown of what its rendered page shows, its blocks apart by a blank line."""
    written = "\n\n".join(block.text for block in shown_blocks(text, mdx=mdx))
    return written + "\n" if written else ""
