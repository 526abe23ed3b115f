"""Classes a MyST page gives its text by reStructuredText's means, where the site's stylesheet may
hide them (myst-probes `rst-class.md`, `rst-role.md`, recorded from Sphinx):

- ``{rst-class} cls`` (and its old name ``{cssclass}``) with no content puts `cls` on the next
  element of the page (docutils' ClassAttribute: the next one that is not a comment or a target,
  climbing out of the block it ends): before a heading, on the whole section it opens, its
  subsections too. With content, on its content.
- A ``{.cls}`` line (attrs_block) over a heading puts `cls` on the section it opens (myst-parser's
  render_heading copies a heading's classes to its section); over a code fence or a colon fence
  that is no directive, on that block (render_fence, render_colon_fence); a directive takes none.
  Myst-probes `attrs-blocks.md`.
- ``.. role:: name`` (in ``{eval-rst}``) makes a role writing `<span class="name">`, or the classes
  of its `:class:` option; the page's ``{name}`text``` and, in the reStructuredText,
  ``:name:`text``` then are that span.

markdown-it-py reads the page; docutils is not run (it would run the page's directives): the
classes are put on the HTML here, and the reader's stylesheets decide what they hide.
"""

from __future__ import annotations

import html
import re
from typing import Any

from markdown_it.token import Token

from app.corpus import myst

RST_CLASS = frozenset({"rst-class", "cssclass"})
# Tokens docutils passes over for the next element: comments and targets (nodes.Invisible), and
# what the page reader shows nothing of between blocks.
_INVISIBLE = frozenset({"myst_line_comment", "myst_target", "myst_block_break", "front_matter"})
_ROLE = re.compile(r"^[ \t]*\.\.[ \t]+role::[ \t]+([\w.+:-]+)(?:\([\w.+:-]*\))?[ \t]*$")
_CLASS_OPTION = re.compile(r"^[ \t]+:class:[ \t]*(.*)$")


def class_list(argument: str) -> str:
    """`argument`'s words as docutils' class_option makes them (`Internal_Note` → `internal-note`),
    the words as written kept too (more hidden, never less), as an HTML class attribute's value."""
    words = argument.split()
    made = [re.sub(r"[^a-z0-9]+", "-", word.lower()).strip("-") for word in words]
    return " ".join(dict.fromkeys(word for word in [*words, *made] if word))


def _directive(token: Token) -> str | None:
    found = myst.DIRECTIVE.fullmatch(token.info.strip()) if token.type in ("fence", "colon_fence") else None
    return myst.name(found.group(1)) if found else None


def _end(tokens: list[Token], at: int) -> int:
    """Where the element opening at `at` ends (past its closing token); a heading at the page's
    top level opens a section, which runs to the next heading of its level or above."""
    token = tokens[at]
    if token.type == "heading_open" and token.level == 0:
        depth = int(token.tag[1:])
        return next((i for i in range(at + 1, len(tokens)) if tokens[i].type == "heading_open"
                     and tokens[i].level == 0 and int(tokens[i].tag[1:]) <= depth), len(tokens))
    if token.nesting != 1:
        return at + 1
    level = 0
    for i in range(at, len(tokens)):
        level += tokens[i].nesting
        if level == 0:
            return i + 1
    return len(tokens)


def _empty_rst_class(token: Token) -> str | None:
    """The argument of a ``{rst-class}`` with no content, None for any other token."""
    if _directive(token) not in RST_CLASS or myst.directive_options(token.content, "rst-class")[1].strip():
        return None
    return myst.DIRECTIVE.fullmatch(token.info.strip()).group(2)  # type: ignore[union-attr]


def _passed_on(md: Any, token: Token, depth: int = 0) -> str | None:
    """The classes of an empty ``{rst-class}`` that ends the body of the directive `token` (read
    as MyST): docutils finds no next element in the body and climbs out, classing the element
    after the directive (myst-probes `rst-class.md`); None when the body ends otherwise."""
    name = _directive(token)
    if name is None or depth > 8 or not (name in myst.TEXT or token.type == "colon_fence") \
            or ("rst-class" not in token.content and "cssclass" not in token.content):
        return None
    body = md.parse(myst.directive_options(token.content, name)[1], {})
    last = next((t for t in reversed(body) if t.nesting >= 0 and t.type not in _INVISIBLE and t.level == 0), None)
    if last is None:
        return None
    return _empty_rst_class(last) if _empty_rst_class(last) is not None else _passed_on(md, last, depth + 1)


def apply_rst_classes(state: Any) -> None:
    """A markdown-it core rule: each ``{rst-class}`` with no content (or one ending a directive's
    body: _passed_on) puts its classes on the next element, in a `<div>` of them around it (the
    page reader keeps a heading in a `<div>` a section)."""
    tokens: list[Token] = state.tokens
    at = 0
    while at < len(tokens):
        token = tokens[at]
        argument = _empty_rst_class(token)
        if argument is None and (argument := _passed_on(state.md, token)) is None:
            at += 1
            continue
        start = next((i for i in range(at + 1, len(tokens))
                      if tokens[i].nesting >= 0 and tokens[i].type not in _INVISIBLE), None)
        if start is None:  # nothing after it on this page part: nothing to class
            break
        _wrap_in_div(tokens, start, _end(tokens, start), argument)
        at += 1


def _wrap_in_div(tokens: list[Token], start: int, end: int, classes: str) -> None:
    """tokens[start:end] inside a `<div>` of `classes`, as Sphinx writes a classed block's HTML."""
    opening, closing = Token("html_block", "", 0), Token("html_block", "", 0)
    opening.content, closing.content = f'<div class="{html.escape(class_list(classes))}">\n', "</div>\n"
    tokens[start:end] = [opening, *tokens[start:end], closing]


def apply_block_attributes(state: Any) -> None:
    """A markdown-it core rule, after attrs_block's: the classes a ``{.cls}`` line gives a top-level
    heading (on its whole section), a code fence or a colon fence that is no directive, in a
    `<div>` of them around it, as for ``{rst-class}``. Other blocks write their classes already."""
    tokens: list[Token] = state.tokens
    at = 0
    while at < len(tokens):
        token = tokens[at]
        classes = token.attrs.get("class")
        name = (token.info.split() or [""])[0]  # `{name}`: a directive, to myst-parser's render_fence
        wrapped = (token.type == "heading_open" and token.level == 0) or (
            token.type in ("fence", "colon_fence") and not (name.startswith("{") and name.endswith("}")))
        if not classes or not wrapped:
            at += 1
            continue
        _wrap_in_div(tokens, at, _end(tokens, at), str(classes))
        at += 2


def page_roles(text: str) -> tuple[tuple[str, str], ...]:
    """The roles the page's reStructuredText defines (`.. role:: name`, `.. role:: name(parent)`),
    each with the classes it writes (its `:class:` option's, else its name's). Read from every
    line of the page, `{eval-rst}` or not: a role defined nowhere else is rare, and one found in a
    code block hides more, never less."""
    lines = text.splitlines()
    roles = {}
    for at, line in enumerate(lines):
        if (found := _ROLE.match(line)) is None:
            continue
        option = next((m.group(1) for following in lines[at + 1:at + 4] if (m := _CLASS_OPTION.match(following))), None)
        roles[found.group(1).lower()] = class_list(option if option is not None else found.group(1))
    return tuple(roles.items())


def role_span(roles: tuple[tuple[str, str], ...], written: str, text: str) -> str | None:
    """The HTML of a role the page defines (`written` as the page writes its name), None for another."""
    classes = dict(roles).get(written.lower())
    return None if classes is None else f'<span class="{html.escape(classes)}">{html.escape(text)}</span>'


def rst_code(rst: str, roles: tuple[tuple[str, str], ...]) -> str:
    """reStructuredText shown as code (escaped), each use of a role the page defines (``:name:`text```
    or ```text`:name:``) in a span of its classes."""
    if not roles:
        return html.escape(rst)
    names = "|".join(re.escape(name) for name, _ in roles)
    use = re.compile(rf":({names}):`[^`]*`|`[^`]*`:({names}):", re.IGNORECASE)
    out, at = [], 0
    for found in use.finditer(rst):
        out += [html.escape(rst[at:found.start()]), role_span(roles, found.group(1) or found.group(2), found.group(0)) or ""]
        at = found.end()
    return "".join([*out, html.escape(rst[at:])])


# The part each of sphinx-design's part options (myst.PART_OPTIONS) classes (cards.py, dropdown.py,
# aside.py, tabs.py, steps.py): the box's other parts show whatever it hides (myst-design `parts.md`).
_PART = {"title": "title", "label": "title", "body": "body", "content": "body", "header": "header", "footer": "footer"}
_CARDS = frozenset({"card", "grid-item-card"})
# A card's legacy separators (sphinx-design's REGEX_HEADER, REGEX_FOOTER): its header ends at the
# first `^^^` line, its footer starts after the last `+++` line.
_HEADER_LINE = re.compile(r"^\^{3,}\s*$")
_FOOTER_LINE = re.compile(r"^\+{3,}\s*$")


def parts_html(name: str, title: str, body: str, options: dict[str, str], render: Any) -> str | None:
    """A box whose options class some of its parts, each part in a `<div>` of its classes: a
    card's title inside its body, its header and footer cut by the legacy separators; `title` is
    the title's HTML, `render` reads Markdown to HTML. None when no part is classed."""
    classed = {_PART[key.removeprefix("class-")]: class_list(options[key]) for key in sorted(myst.PART_OPTIONS)
               if options.get(key, "").strip()}
    if not classed:
        return None

    def part(html_: str, name_: str) -> str:
        return f'<div class="{html.escape(classed[name_])}">{html_}</div>' if name_ in classed and html_ else html_

    lines = body.splitlines(keepends=True)
    header_at = next((i for i, line in enumerate(lines) if _HEADER_LINE.match(line)), None) if name in _CARDS else None
    footer_at = next((i for i in range(len(lines) - 1, -1, -1) if _FOOTER_LINE.match(lines[i])), None) if name in _CARDS else None
    header = "".join(lines[:header_at]) if header_at is not None else ""
    footer = "".join(lines[footer_at + 1:]) if footer_at is not None else ""
    main = "".join(lines[(header_at + 1 if header_at is not None else 0):footer_at])
    if name in _CARDS:  # the title is the body's first part
        return part(render(header), "header") + part(part(title, "title") + render(main), "body") + part(render(footer), "footer")
    return part(title, "title") + part(render(main), "body")

