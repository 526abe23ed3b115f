"""Emoji shortcodes as VitePress renders them (`:tada:` → 🎉, `:)` → 😃 between spaces): a port
of @mdit/plugin-emoji, which VitePress 2.0.0-alpha.19 bundles and enables by default, with its
default tables (app/corpus/vitepress_emoji.json, taken from VitePress's bundle and checked by
rendering each entry with VitePress: scripts/record_vitepress_emoji.mjs).

The rule runs where the plugin's does (a core rule after linkify, before text_join), on `text`
tokens outside autolinks: so an escaped `\\:tada:`, or `<\\3`, which markdown-it splits at the
backslash, stays as written, as in VitePress. VitePress also turns on linkify (a bare URL becomes
a link, and a shortcode inside one stays); docschat's markdown-it-py has no linkify-it, so such a
URL's `:name:` is drawn (the only difference, tests/test_vitepress_emoji.py).
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

_TABLES = Path(__file__).with_name("vitepress_emoji.json")


@cache
def _tables() -> tuple[dict[str, str], dict[str, str], re.Pattern[str]]:
    """The definitions (name → emoji), the shortcuts (written → name) and the pattern of both,
    longest first where one starts another (the plugin's sort().reverse())."""
    data = json.loads(_TABLES.read_text(encoding="utf-8"))
    definitions: dict[str, str] = data["definitions"]
    shortcuts = {written: name for name, given in data["shortcuts"].items() if name in definitions
                 for written in (given if isinstance(given, list) else [given])}
    # JavaScript sorts by UTF-16 code units; every name and shortcut is ASCII, where both agree.
    keys = sorted([f":{name}:" for name in definitions] + list(shortcuts), reverse=True)
    return definitions, shortcuts, re.compile("|".join(map(re.escape, keys)))


def _boundary(char: str) -> bool:
    """ucmicro's Z, P or Cc (markdown-it's utils): a space, a punctuation mark or a control."""
    category = unicodedata.category(char)
    return category[0] in "ZP" or category == "Cc"


def _split(text: str, level: int, definitions: dict[str, str], shortcuts: dict[str, str],
           pattern: re.Pattern[str]) -> list[Token]:
    tokens, last = [], 0
    for match in pattern.finditer(text):
        found, start = match.group(0), match.start()
        if found in shortcuts:
            # A shortcut (`:)`) only between spaces or punctuation: `x:)` stays.
            if (start > 0 and not _boundary(text[start - 1])) or \
                    (match.end() < len(text) and not _boundary(text[match.end()])):
                continue
            name = shortcuts[found]
        else:
            name = found[1:-1]
        if start > last:
            tokens.append(Token("text", "", 0, content=text[last:start], level=level))
        tokens.append(Token("emoji", "", 0, markup=name, content=definitions[name], level=level))
        last = match.end()
    if last < len(text):
        tokens.append(Token("text", "", 0, content=text[last:], level=level))
    return tokens


def _replace(state: StateCore) -> None:
    definitions, shortcuts, pattern = _tables()
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        children, auto = block.children, 0
        for index in range(len(children) - 1, -1, -1):  # from the end, as the plugin walks
            token = children[index]
            if token.type in ("link_open", "link_close") and token.info == "auto":
                auto -= token.nesting
            if token.type == "text" and auto == 0 and pattern.search(token.content):
                children[index:index + 1] = _split(token.content, token.level, definitions, shortcuts, pattern)
        block.children = children


def emoji_plugin(md: MarkdownIt) -> None:
    md.core.ruler.after("linkify", "emoji", _replace)
    md.add_render_rule("emoji", lambda self, tokens, idx, options, env: tokens[idx].content)
