"""VitePress's `[[toc]]` (@mdit-vue/plugin-toc, which VitePress turns on with its defaults: the page's
headings of levels 2 and 3, nested, as links, in a `<nav class="table-of-contents">`), ported to
markdown-it-py from vitepress 2.0.0-alpha.19's bundle (createTocBlockRule, resolveHeadersFromTokens,
resolveTitleFromToken). Compared with VitePress's own renderer: tests/data/vitepress-markdown.json."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.rules_block import StateBlock
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

_PATTERN = re.compile(r"^\[\[toc\]\]$", re.IGNORECASE)
_LEVELS = (2, 3)
ADDED = "vitepress_heading_id"  # the meta key of a text token docschat adds to a heading (no part of its title)


def toc_plugin(md: MarkdownIt, slugify: Callable[[str], str]) -> None:
    """`slugify`: a heading's anchor from its title, where it has no id of its own (`{#id}`)."""
    md.block.ruler.before("heading", "toc", _toc_rule, {"alt": ["paragraph", "reference", "blockquote"]})

    def render(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        return _render_toc(tokens, slugify)

    md.add_render_rule("toc_body", render)


def _toc_rule(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """A line whose first word (split at spaces) is `[[toc]]`: the table; the rest of the line is dropped."""
    if state.sCount[start] - state.blkIndent >= 4:
        return False
    position = state.bMarks[start] + state.tShift[start]
    if not _PATTERN.match(state.src[position:state.eMarks[start]].split(" ")[0]):
        return False
    if silent:
        return True
    state.line = start + 1
    opening = state.push("toc_open", "nav", 1)
    opening.attrSet("class", "table-of-contents")
    opening.map = [start, state.line]
    state.push("toc_body", "", 0).map = [start, state.line]
    state.push("toc_close", "nav", -1)
    return True


def _title(inline: Token) -> str:
    """The heading's text, code and inline HTML (a component, rendered), text and code escaped."""
    kept = [child for child in inline.children or [] if child.type in ("text", "code_inline", "html_inline")
            and not child.meta.get(ADDED)]
    return "".join(html.escape(child.content) if child.type != "html_inline" else child.content for child in kept).strip()


def _render_toc(tokens: Sequence[Token], slugify: Callable[[str], str]) -> str:
    """The headings of levels 2 and 3 outside any container, each under the last of a lower level."""
    headers: list[dict[str, Any]] = []
    stack: list[dict[str, Any]] = []
    for index, token in enumerate(tokens[:-1]):
        if token.type != "heading_open" or token.level != 0 or int(token.tag[1:]) not in _LEVELS:
            continue
        title = _title(tokens[index + 1])
        # Its id, else the anchor plugin's slug of its text and code alone (getTokensText).
        words = "".join(child.content for child in tokens[index + 1].children or []
                        if child.type in ("text", "code_inline") and not child.meta.get(ADDED))
        slug = token.attrGet("id") or slugify(words)
        header = {"level": int(token.tag[1:]), "title": title, "link": f"#{slug}", "children": []}
        while stack and header["level"] <= stack[0]["level"]:
            stack.pop(0)
        (stack[0]["children"] if stack else headers).append(header)
        stack.insert(0, header)
    return _list(headers)


def _list(headers: list[dict[str, Any]]) -> str:
    return "<ul>" + "".join(f'<li><a href="{html.escape(header["link"])}">{header["title"]}</a>{_list(header["children"]) if header["children"] else ""}</li>'
                            for header in headers) + "</ul>"
