"""MDX expressions (`{…}` in an `.mdx` page's prose): where each ends, and what the index keeps of it.

The site shows what an expression evaluates to (`{false && 'internal'}` shows nothing, `{" "}` a
space), which the index cannot know: it keeps nothing of an expression but a plain string's text
(the safe reading). MDX ends an expression at the first `}` where what it holds parses as
JavaScript with JSX, so a brace in a string, a comment, a template, a regular expression or in JSX
text does not end it, and JSX text may hold quotes, `//` and `/*` freely
(`{show && <Note>Don't use https://x.example</Note>}`). `expression_end` follows that with a small
lexer: nothing is parsed, only strings, comments, templates, regular expressions, brackets and JSX
elements are told apart, in time linear in the text. Where it is lost, `balanced_end` ends an
expression where its braces balance, as MDX first finds it.
"""

from __future__ import annotations

import re

_OPEN_BRACKETS = {"{": "}", "(": ")", "[": "]"}
_JS_TOKEN = re.compile(r"""[{}()\[\]'"`/<]""")
# A string's body; a backslash may continue it on the next line.
_STRING_BODY = {q: rf"(?:[^{q}\\\n]|\\[\s\S])*+" for q in "'\""}
_STRING = {q: re.compile(q + body + q) for q, body in _STRING_BODY.items()}
_REGEX_LITERAL = re.compile(r"/(?:[^/\\\[\n]|\\.|\[(?:[^\]\\\n]|\\.)*+\])++/[A-Za-z]*")
_MAX_REGEX_LITERAL = 160  # each `/` read as one's start is matched this far at most: linear time
_LINE_END = re.compile("[\n\r\u2028\u2029]")  # where a `//` comment ends, as JavaScript ends it
_TEMPLATE_TOKEN = re.compile(r"\\.|`|\$\{", re.DOTALL)
_TAG_TOKEN = re.compile(r"""["'{>]|/>|/\*|//|<""")
_CHILDREN_TOKEN = re.compile(r"[{<]")
_BRACE = re.compile(r"[{}]")
_JSX_NAME_START = re.compile(r"[A-Za-z_$]")
# After these (or at the start) an operand begins: `/` opens a regular expression and `<` an
# element; after an operand (a name, `)`, a string, `i++`) they divide and compare.
_OPERAND_AFTER = frozenset("(,=:[!&|?{};+-*%<>~^")
_KEYWORDS_BEFORE_OPERAND = frozenset(
    "return typeof void delete in of new instanceof case do else yield await throw".split()
)
_TRAILING_NAME = re.compile(r"[\w$]+\Z")


def _last_significant(text: str, start: int, end: int, last: str) -> str:
    """The last character that says what `/` or `<` at `end` is: `(` where an operand begins
    after a keyword (`return /x/`, `typeof <T>`), `)` after a postfix `++`/`--`."""
    chunk = text[start:end].rstrip()
    if not chunk:
        return last
    if chunk.endswith(("++", "--")):
        return ")"
    if (name := _TRAILING_NAME.search(chunk, max(0, len(chunk) - 16))) is not None:
        return "(" if name.group(0) in _KEYWORDS_BEFORE_OPERAND else "a"
    return chunk[-1]


def _comment_end(text: str, start: int) -> int:
    """The end of the comment at `text[start]`: a `//` one's line end (as JavaScript ends it), just
    past a `/*` one's `*/`; -1 when there is none."""
    if text.startswith("//", start):
        found = _LINE_END.search(text, start)
        return found.start() if found else -1
    close = text.find("*/", start + 2)
    return close + 2 if close >= 0 else -1


def expression_end(text: str, start: int) -> int | None:
    """The index just past the `}` that ends the expression opening at `text[start]` (a `{`); None
    when it never ends (MDX refuses such a page) or its brackets do not match."""
    stack: list[str] = ["}"]  # a closing bracket: JavaScript; "`": a template; "<": a tag; ">": children
    position, last = start + 1, "{"
    while stack:
        mode = stack[-1]
        if mode == "`":
            found = _TEMPLATE_TOKEN.search(text, position)
            if found is None:
                return None
            position = found.end()
            if found.group(0) == "`":
                stack.pop()
                last = ")"
            elif found.group(0) == "${":
                stack.append("}")
                last = "{"
            continue
        if mode == "<":  # inside `<Name …`: attribute strings and expressions, up to `>` or `/>`
            found = _TAG_TOKEN.search(text, position)
            if found is None:
                return None
            token = found.group(0)
            if token in ("'", '"'):
                close = text.find(token, found.end())  # JSX attribute strings have no escapes
                if close < 0:
                    return None
                position = close + 1
            elif token in ("/*", "//"):  # a comment between attributes
                position = _comment_end(text, found.start())
                if position < 0:
                    return None
            elif token == "<":  # an element as an attribute's value
                stack.append("<")
                position = found.end()
            elif token == "{":
                stack.append("}")
                position, last = found.end(), "{"
            else:  # `/>` ends the element, `>` opens its children
                stack[-1:] = [] if token == "/>" else [">"]
                position, last = found.end(), ")"
            continue
        if mode == ">":  # an element's children: text, expressions, elements, its closing tag
            found = _CHILDREN_TOKEN.search(text, position)
            if found is None:
                return None
            if found.group(0) == "{":
                stack.append("}")
                position, last = found.end(), "{"
                continue
            after = text[found.end():found.end() + 1]
            if after == "/":  # the closing tag
                close = text.find(">", found.end())
                if close < 0:
                    return None
                stack.pop()
                position, last = close + 1, ")"
            elif after == ">":  # a fragment, `<>`
                stack.append(">")
                position = found.end() + 1
            elif _JSX_NAME_START.match(after):
                stack.append("<")
                position = found.end()
            else:
                position = found.end()  # a lone `<` is text
            continue
        # JavaScript, up to the closing bracket `mode`
        found = _JS_TOKEN.search(text, position)
        if found is None:
            return None
        token, at = found.group(0), found.start()
        last = _last_significant(text, position, at, last)
        position = found.end()
        if token in _OPEN_BRACKETS:
            stack.append(_OPEN_BRACKETS[token])
            last = token
        elif token in "})]":
            if token != mode:
                return None
            stack.pop()
            last = ")"
        elif token in _STRING:
            string = _STRING[token].match(text, at)
            if string is None:
                return None
            position, last = string.end(), ")"
        elif token == "`":
            stack.append("`")
        elif token == "/":
            if text.startswith(("//", "/*"), at):
                position = _comment_end(text, at)
                if position < 0:  # never ends: nor does the expression
                    return None
            elif last in _OPERAND_AFTER and (
                regex := _REGEX_LITERAL.match(text, at, at + _MAX_REGEX_LITERAL)
            ) is not None:
                position, last = regex.end(), ")"
            else:
                last = "/"
        elif token == "<":
            after = text[position:position + 1]
            if last in _OPERAND_AFTER and after == ">":
                stack.append(">")
                position += 1
            elif last in _OPERAND_AFTER and _JSX_NAME_START.match(after):
                stack.append("<")
            else:
                last = "<"
    return position


# No comment can be read as two (`/\*.*?\*/` could: exponential time on a failed match).
_SPACE_OR_COMMENT = r"(?:\s|/\*(?:[^*]|\*(?!/))*+\*/|//[^\n]*+\n)*+"
_STRING_EXPRESSION = re.compile(
    rf"""\{{{_SPACE_OR_COMMENT}(?:"({_STRING_BODY['"']})"|'({_STRING_BODY["'"]})'|`((?:[^`\\$]|\\.|\$(?!\{{))*)`)"""
    rf"{_SPACE_OR_COMMENT}\}}",
    re.DOTALL,
)
_ESCAPE = re.compile(r"\\(u\{[0-9A-Fa-f]+\}|u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|\n|.)", re.DOTALL)
_ESCAPED = {"n": "\n", "t": "\t", "r": "\r", "\n": ""}


def _unescape(match: re.Match[str]) -> str:
    escape = match.group(1)
    if escape[0] in "ux" and len(escape) > 1:
        point = int(escape[2:-1] if escape[1] == "{" else escape[1:], 16)
        # No NUL or lone surrogate: no database stores them.
        return chr(point) if 0 < point <= 0x10FFFF and not 0xD800 <= point <= 0xDFFF else "\ufffd"
    return _ESCAPED.get(escape, escape)


def indexed_text(expression: str) -> str:
    """What the index keeps of an expression (`{…}`, braces included): a plain string's text (a
    comment beside it is no text), else nothing."""
    string = _STRING_EXPRESSION.fullmatch(expression)
    if string is None:
        return ""
    return _ESCAPE.sub(_unescape, next(g for g in string.groups() if g is not None))


def balanced_end(text: str, start: int, limit: int | None = None) -> int | None:
    """The index just past the `}` that balances the `{` at `text[start]`, every brace counted
    (before `limit`): how MDX finds an expression before it parses it, for where the lexer above
    is lost."""
    depth = 0
    for found in _BRACE.finditer(text, start, len(text) if limit is None else limit):
        depth += 1 if found.group(0) == "{" else -1
        if depth == 0:
            return found.end()
    return None
