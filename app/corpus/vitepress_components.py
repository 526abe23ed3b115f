"""Vue components in a VitePress page's Markdown, as @mdit-vue/plugin-component reads them (VitePress
2.0.0-alpha.19's componentPlugin): a line opening with a tag that is no HTML inline element (a
component, `<NamedSlot>`, `<my-comp>`) starts an HTML block, as a `<div>` does, so what follows on
it is HTML, not a paragraph (`<Box><template #title>x</template></Box>` stays markup for Vue); a
line that is such an element whole (`<Box a="1" />`, `<Box>…</Box>`) is that markup and the rest
of the line inline text; and an inline tag's attributes may start with `@` (`<span @click="x">`).
markdown-it escaped these as text (`&lt;template #title&gt;`), which Vue never sees and the page
never shows.

A port of the plugin's two rules (its html-block-rule.ts and html-inline-rule.ts, markdown-it's
rules with these changes) onto markdown-it-py's, which are markdown-it's.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.common.utils import isLinkClose, isLinkOpen
from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline

_BLOCK_TAGS = (
    "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col", "colgroup",
    "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "frame",
    "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "iframe", "legend", "li", "link",
    "main", "menu", "menuitem", "nav", "noframes", "ol", "optgroup", "option", "p", "param", "search", "section",
    "summary", "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "track", "ul")
_INLINE_TAGS = (
    "a", "abbr", "acronym", "audio", "b", "bdi", "bdo", "big", "br", "button", "canvas", "cite", "code", "data",
    "datalist", "del", "dfn", "em", "embed", "i", "iframe", "img", "input", "ins", "kbd", "label", "map", "mark",
    "meter", "noscript", "object", "output", "picture", "progress", "q", "ruby", "s", "samp", "script", "select",
    "slot", "small", "span", "strong", "sub", "sup", "svg", "template", "textarea", "time", "u", "tt", "var", "video",
    "wbr")
_VUE_RESERVED = ("template", "component", "transition", "transition-group", "keep-alive", "slot", "teleport")

# html-re.ts: markdown-it's tag expressions, an attribute's name allowed to start with `@`.
_ATTRIBUTE = r"""(?:\s+[a-zA-Z_:@][a-zA-Z0-9:._-]*(?:\s*=\s*(?:[^"'=<>`\x00-\x20]+|'[^']*'|"[^"]*"))?)"""
_OPEN_TAG = r"<[A-Za-z][A-Za-z0-9\-]*" + _ATTRIBUTE + r"*\s*\/?>"
_CLOSE_TAG = r"<\/[A-Za-z][A-Za-z0-9\-]*\s*>"
_HTML_TAG = re.compile("(?:" + _OPEN_TAG + "|" + _CLOSE_TAG + r"|<!---->|<!--(?:-?[^>-])(?:-?[^-])*-->"
                       r"|<[?][\s\S]*?[?]>|<![A-Z]+\s+[^>]*>|<!\[CDATA\[[\s\S]*?\]\]>)")
_SELF_CLOSING = re.compile(r"^<[A-Za-z][A-Za-z0-9\-]*" + _ATTRIBUTE + r"*\s*\/>")
_OPEN_AND_CLOSE = re.compile(r"^<([A-Za-z][A-Za-z0-9\-]*)" + _ATTRIBUTE + r"*\s*>.*<\/\1\s*>")
_INLINE_FORCED = "|".join(tag for tag in _INLINE_TAGS if tag not in _VUE_RESERVED)
_SEQUENCES: tuple[tuple[re.Pattern[str], re.Pattern[str], bool], ...] = (
    (re.compile(r"^<(script|pre|style)(?=(\s|>|$))", re.IGNORECASE), re.compile(r"<\/(script|pre|style)>", re.IGNORECASE), True),
    (re.compile(r"^<!--"), re.compile(r"-->"), True),
    (re.compile(r"^<\?"), re.compile(r"\?>"), True),
    (re.compile(r"^<![A-Z]"), re.compile(r">"), True),
    (re.compile(r"^<!\[CDATA\["), re.compile(r"\]\]>"), True),
    (re.compile(r"^</?(" + "|".join(_BLOCK_TAGS) + r")(?=(\s|/?>|$))", re.IGNORECASE), re.compile(r"^$"), True),
    # A tag that is no inline element (a component): a block, which may interrupt a paragraph.
    (re.compile(r"^</?(?!(" + _INLINE_FORCED + r")(?![A-Za-z0-9_-]))[A-Za-z][A-Za-z0-9\-]*(?=(\s|/?>|$))"), re.compile(r"^$"), True),
    (re.compile("^(?:" + _OPEN_TAG + "|" + _CLOSE_TAG + r")\s*$"), re.compile(r"^$"), False),
)
_COMPONENT = 6


def component_plugin(md: MarkdownIt) -> None:
    md.block.ruler.at("html_block", _html_block, {"alt": ["paragraph", "reference", "blockquote"]})
    md.inline.ruler.at("html_inline", _html_inline)


def _html_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    pos = state.bMarks[start] + state.tShift[start]
    line = state.src[pos:state.eMarks[start]]
    if state.is_code_block(start) or not state.md.options.get("html") or not line.startswith("<"):
        return False
    kind = next((i for i, (opening, _, _) in enumerate(_SEQUENCES) if opening.search(line)), None)
    if kind is None:
        return False
    if silent:
        return _SEQUENCES[kind][2]
    if kind == _COMPONENT and (whole := _SELF_CLOSING.match(line) or _OPEN_AND_CLOSE.match(line)):
        # The element is the markup; the rest of its line inline text, in no paragraph. (The plugin
        # pushes an `html_inline`; a line's end after it here, so that the words of two components'
        # lines stay apart: each renders its own element, which the reader does not know, in the build.)
        state.line = start + 1
        token = state.push("html_block", "", 0)
        token.content, token.map = whole.group(0) + "\n", [start, state.line]
        token = state.push("inline", "", 0)
        token.content, token.map, token.children = line[len(whole.group(0)):], [start, state.line], []
        return True
    closing = _SEQUENCES[kind][1]
    following = start + 1
    if not closing.search(line):
        while following < end:
            if state.sCount[following] < state.blkIndent:
                break
            text = state.src[state.bMarks[following] + state.tShift[following]:state.eMarks[following]]
            if closing.search(text):
                if text:
                    following += 1
                break
            following += 1
    state.line = following
    token = state.push("html_block", "", 0)
    token.map = [start, following]
    token.content = state.getLines(start, following, state.blkIndent, True)
    return True


def _html_inline(state: StateInline, silent: bool) -> bool:
    pos, src = state.pos, state.src
    if not state.md.options.get("html") or src[pos] != "<" or pos + 2 >= state.posMax:
        return False
    second = src[pos + 1]
    if second not in "!?/" and not ("a" <= second.lower() <= "z"):
        return False
    if state.html_terminator_last(">") < pos + 2:  # no `>` after it: no tag (and no regex run over the rest)
        return False
    found = _HTML_TAG.match(src, pos)
    if found is None:
        return False
    if not silent:
        token = state.push("html_inline", "", 0)
        token.content = found.group(0)
        state.linkLevel += 1 if isLinkOpen(token.content) else -1 if isLinkClose(token.content) else 0
    state.pos += len(found.group(0))
    return True
