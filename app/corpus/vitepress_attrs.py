"""`{…}` attributes on a VitePress page, as @mdit/plugin-attrs sets them (VitePress 2.0.0-alpha.19
turns it on for the rules `inline`, `table`, `list`, `heading`, `hr`, `softbreak`, `blockInfo` and
`blockEnd`): `text {hidden}` ends a paragraph with its attributes, `- item {style="display: none"}`
a list item's, `| cell {.x} |` a table cell's, `*em*{hidden}` or `` `code`{hidden} `` an inline
element's, a `{…}` paragraph after a table or list the table's or list's, `--- {.x}` a rule's,
`::: tip Title {.x}` a box's (its title loses it). The attributes are HTML's: `hidden` or a `style`
hides what they are on, in the build as in the page reader.

A port (the plugin is JavaScript, markdown-it's; markdown-it-py's tokens are the same): its matchers
(`getMatchingOpeningToken`, the `start`/`end`/`only` tests, the attribute parser) and the rules
VitePress turns on, run in its order before linkify. Not ported: the table's colspan bookkeeping
(attributes only) and the task list rules (mdit-py-plugins' task items end with their text, so the
list item rule reads them). Compared with the real part: the `guide/attributes` page of
tests/data/site-nav/vitepress (its build read in Chromium) and tests/data/vitepress-markdown.json
(VitePress's renderer's HTML of each case).
"""

from __future__ import annotations

from collections.abc import Callable

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

LEFT, RIGHT = "{", "}"
Range = tuple[int, int]


def attrs_plugin(md: MarkdownIt) -> None:
    md.core.ruler.before("linkify", "attrs", _attrs)


def _unescaped_quote(text: str, at: int) -> bool:
    if text[at:at + 1] != '"':
        return False
    slashes = 0
    while at - 1 - slashes >= 0 and text[at - 1 - slashes] == "\\":
        slashes += 1
    return slashes % 2 == 0


def _closing(text: str, start: int) -> int:
    """The `}` after `start` outside a quoted value, or -1."""
    found = text.find(RIGHT, start)
    if found == -1:
        return -1
    quote = text.find('"', start)
    if quote == -1 or quote > found:
        return found
    inside = False
    for at in range(start, len(text)):
        if _unescaped_quote(text, at):
            inside = not inside
        elif not inside and text.startswith(RIGHT, at):
            return at
    return -1


def _last_opening(text: str) -> int:
    """The last `{` outside a quoted value, or -1."""
    last = text.rfind(LEFT)
    if last == -1:
        return -1
    quote = text.find('"')
    if quote == -1 or quote > last:
        return last
    found, inside = -1, False
    for at in range(len(text)):
        if _unescaped_quote(text, at):
            inside = not inside
        elif not inside and text.startswith(LEFT, at):
            found = at
    return found


def _braces(where: str) -> Callable[[str], Range | None]:
    """The plugin's test of a text holding `{…}` at its `start`, `end`, or as all of it (`only`):
    the range inside the braces."""
    def test(text: str) -> Range | None:
        if len(text) < len(LEFT) + 1 + len(RIGHT):
            return None
        if where == "start":
            if not text.startswith(LEFT):
                return None
            first, end = len(LEFT), _closing(text, len(LEFT) + 1)
            if end == -1 or (end + len(RIGHT) < len(text) and text[end + len(RIGHT)] in RIGHT):
                return None
        elif where == "end":
            first = _last_opening(text)
            if first == -1:
                return None
            end = _closing(text, first + len(LEFT) + 1)
            first += len(LEFT)
            if end == -1 or end + len(RIGHT) != len(text):
                return None
        else:
            if not (text.startswith(LEFT) and text.endswith(RIGHT)):
                return None
            first, end = len(LEFT), len(text) - len(RIGHT)
        least = 2 if text[first:first + 1] in (".", "#") and first < len(text) else 1
        return (first, end) if end - first >= least else None
    return test


START, END, ONLY = _braces("start"), _braces("end"), _braces("only")
_NOT_IN_KEY = {"\t", "\n", "\f", " ", "/", ">", '"', "'", "="}


def _parsed(text: str, span: Range) -> list[tuple[str, str]]:
    """The attributes written in `text[span]`: `.class`, `#id`, `key=value`, `key="a value"`, `key`."""
    key, value, in_key, quoted, found = "", "", True, False, []
    at = span[0]
    while at < span[1]:
        char = text[at]
        if char == "=" and in_key:
            in_key = False
        elif char == "." and key == "":
            if text[at + 1:at + 2] == ".":
                key, at = "css-module", at + 1
            else:
                key = "class"
            in_key = False
        elif char == "#" and key == "":
            key, in_key = "id", False
        elif char == '"' and _unescaped_quote(text, at) and value == "" and not quoted:
            quoted = True
        elif char == '"' and _unescaped_quote(text, at) and quoted:
            quoted = False
        elif char == " " and not quoted:
            if key:
                found.append((key, value))
                key, value, in_key = "", "", True
        elif not (in_key and char in _NOT_IN_KEY):
            if in_key:
                key += char
            else:
                value += char
        at += 1
    if key:
        found.append((key, value))
    return found


def _apply(token: Token | None, text: str, span: Range) -> None:
    if token is None:
        return
    for key, value in _parsed(text, span):
        if key in ("class", "css-module"):
            token.attrJoin(key, value)
        else:
            token.attrSet(key, value)


def _opening(tokens: list[Token], at: int) -> Token | None:
    """getMatchingOpeningToken: the token at `at`, or the opening token a closing one closes."""
    if at < 0 or at >= len(tokens) or tokens[at].type == "softbreak":
        return None
    token = tokens[at]
    if token.nesting == 0:
        return token
    kind = token.type.replace("_close", "_open")
    for earlier in range(at, -1, -1):
        if tokens[earlier].type == kind and tokens[earlier].level == token.level:
            return tokens[earlier]
    return None


def _cut(text: str, span: Range) -> str:
    """The text before its `{…}`, less the one space before the brace."""
    brace = span[0] - len(LEFT)
    return text[:brace - 1 if brace > 0 and text[brace - 1] in " \t" else brace]


def _at(tokens: list[Token], index: int) -> Token | None:
    return tokens[index] if 0 <= index < len(tokens) else None


def _type(token: Token | None) -> str:
    return token.type if token is not None else ""


def _inline_rules(tokens: list[Token], i: int) -> None:
    """`*em*{.x}`, `[link](u){.x}`, `` `code`{.x} ``, `![img](u){.x}`: the element before the brace;
    tried again at the same place after each match, as the plugin does."""
    token = tokens[i]
    if token.type != "inline" or not token.children:
        return
    children = token.children
    changed = True
    while changed:
        changed = False
        for p in range(1, len(children)):
            before, text = children[p - 1], children[p]
            span = START(text.content) if text.type == "text" else None
            if span is None:
                continue
            length = len(RIGHT) + span[1]
            if before.type in ("image", "code_inline"):
                _apply(before, text.content, span)
                if len(text.content) == length:
                    del children[p]
                else:
                    text.content = text.content[length:]
            elif before.nesting == -1:
                _apply(_opening(children, p - 1), text.content, span)
                text.content = text.content[length:]
            else:
                continue
            changed = True
            break


def _end_text(children: list[Token]) -> int:
    """The plugin's `end of block` search: the last text child outside any inline element."""
    if children and children[-1].type == "text" and children[-1].content.strip():
        return len(children) - 1
    depth = 0
    for at in range(len(children) - 1, -1, -1):
        child = children[at]
        if child.type in ("code_inline", "math_inline"):
            return -1
        if child.nesting == -1:
            depth += 1
            continue
        if child.nesting == 1:
            depth -= 1
            if depth < 0:
                return -1
        if depth == 0 and child.type == "text" and child.content.strip():
            return at
    return -1


def _attrs(state: StateCore) -> None:
    tokens = state.tokens
    i = 0
    while i < len(tokens):
        _inline_rules(tokens, i)
        token = tokens[i]
        children = token.children or []
        # table: `{…}` alone in the paragraph after a table is the table's.
        following = _at(tokens, i + 2)
        if token.type == "table_close" and _type(_at(tokens, i + 1)) == "paragraph_open" and following is not None \
                and following.type == "inline" and (span := ONLY(following.content)):
            _apply(_opening(tokens, i), following.content, span)
            del tokens[i + 1:i + 4]
        # table cell attributes
        if token.type == "inline" and _type(_at(tokens, i - 1)) in ("td_open", "th_open"):
            for child in children:
                if child.type == "text" and (span := END(child.content)):
                    _apply(tokens[i - 1], child.content, span)
                    child.content = _cut(child.content, span)
                    break
        item = _type(_at(tokens, i - 2)) == "list_item_open" and token.type == "inline"
        # list softbreak: `- item` then `{…}` on the next line: the list's.
        if item and len(children) >= 2 and children[-2].type == "softbreak" and children[-1].type == "text" \
                and (span := ONLY(children[-1].content)):
            at = i - 2
            while at > 0 and tokens[at - 1].type not in ("ordered_list_open", "bullet_list_open"):
                at -= 1
            _apply(_at(tokens, at - 1), children[-1].content, span)
            token.children = children = children[:-2]
        # list double softbreak: `{…}` alone in the paragraph after a list.
        if token.type in ("bullet_list_close", "ordered_list_close") and _type(_at(tokens, i + 1)) == "paragraph_open" \
                and following is not None and following.type == "inline" and len(following.children or []) == 1 \
                and (span := ONLY(following.content)) and _type(_at(tokens, i + 3)) == "paragraph_close":
            _apply(_opening(tokens, i), following.content, span)
            del tokens[i + 1:i + 4]
        # list item end: `- item {…}` is the item's.
        if item and children and children[-1].type == "text" and (span := END(children[-1].content)):
            _apply(tokens[i - 2], children[-1].content, span)
            children[-1].content = _cut(children[-1].content, span)
        # softbreak then curly in start: a paragraph's last line `{…}`: the block it ends.
        if token.type == "inline" and len(children) >= 2 and children[-2].type == "softbreak" \
                and children[-1].type == "text" and (span := ONLY(children[-1].content)):
            last = i + 1
            while (after := _at(tokens, last + 1)) is not None and after.nesting == -1:
                last += 1
            _apply(_opening(tokens, last), children[-1].content, span)
            token.children = children = children[:-2]
        # horizontal rule: `--- {…}`
        if token.type == "paragraph_open" and following is not None and _type(_at(tokens, i + 1)) == "inline":
            line = tokens[i + 1]
            if len(line.children or []) == 1 and (span := _rule(line.content)) and _type(following) == "paragraph_close":
                token.type, token.tag, token.nesting, token.markup = "hr", "hr", 0, line.content
                _apply(token, line.content, span)
                del tokens[i + 1:i + 3]
        # block info: a block token's info ending `{…}` (a container's `::: tip Title {…}`), not a fence's.
        if token.type != "fence" and token.block and token.info and (span := END(token.info)):
            _apply(token, token.info, span)
            token.info = _cut(token.info, span)
        # end of block: the block's last text ending `{…}` (a paragraph's, a heading's).
        if token.type == "inline" and (last := _end_text(token.children or [])) != -1:
            child = (token.children or [])[last]
            if span := END(child.content):
                _apply(_opening(tokens, i + 1), child.content, span)
                child.content = _cut(child.content, span)
        i += 1


def _rule(text: str) -> Range | None:
    """A thematic break followed by `{…}` (`--- {.x}`): the range of the attributes."""
    if not text or text[0] not in "-*_":
        return None
    at = 1
    while at < len(text) and text[at] == text[0]:
        at += 1
    if at < 3:
        return None
    if at < len(text) and text[at] in " \t":
        at += 1
    span = END(text)
    return span if span is not None and span[0] - len(LEFT) == at else None
