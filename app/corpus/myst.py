"""MyST markup (Sphinx's Markdown): what a reader sees stays, the directive syntax goes.

Docs built with Sphinx and MyST write directives as fences (```` ```{note} ````, ``:::{tip}``)
whose first lines are options (``:language: python``), and cross-references as roles
(``{ref}`label```). As plain Markdown a directive fence is "code", so an admonition's prose
was indexed as code, and a ``{literalinclude}`` (a file pulled in at build time, which the index
never has) left only its options: ``:start-after: __spread_start__`` in the text the model reads.

- A directive that pulls in something the page does not hold (a file, an image, a table of
  contents, raw output) is dropped.
- An admonition or container (note, warning, dropdown, tab-item, …) becomes its text: its title,
  if it has one, then its body, options gone.
- Any other directive is code (``{code-block} python``, ``{testcode}``, Quarto's ``{python}``): it
  stays a code fence, in its language, options gone.
- A ``:::{name}`` fence keeps its lines (the chunker keeps such a callout whole), options gone.
- A role keeps its text: ``{ref}`Ray Data <data>``` → ``Ray Data``, ``{class}`ray.data.Dataset``` →
  ``ray.data.Dataset``.
"""

from __future__ import annotations

import re

_DIRECTIVE_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,}|:{3,})\{([\w:-]+)\}[ \t]*(.*?)[ \t]*$")
_OPTION = re.compile(r"^[ \t]*:[\w-]+:(?:[ \t].*)?$")
# A role, or an inline code span (matched so that a `{name}` inside code is never taken for a role).
_ROLE_OR_CODE = re.compile(r"\{([A-Za-z][\w:-]*)\}`([^`]*)`|(`+)(?!`).+?(?<!`)\3(?!`)")
_ROLE_TEXT = re.compile(r"^(.*?)\s*<[^<>]*>$", re.DOTALL)

# Directives whose content is not on the page (build-time includes, images, navigation, raw output).
_NOT_ON_THE_PAGE = frozenset({
    "literalinclude", "include", "image", "toctree", "raw", "eval-rst", "contents", "autosummary",
    "automodule", "autoclass", "autofunction", "automethod", "autoattribute", "autodata", "only",
    "mermaid", "graphviz", "plot",
})
# Directives whose body is text the reader reads (admonitions, containers, tabs, cards, tables).
_TEXT = frozenset({
    "note", "tip", "hint", "important", "warning", "caution", "danger", "error", "attention", "seealso",
    "admonition", "dropdown", "tab-set", "tab-item", "card", "grid", "grid-item", "grid-item-card",
    "topic", "sidebar", "margin", "versionadded", "versionchanged", "deprecated", "button-ref",
    "button-link", "div", "container", "epigraph", "pull-quote", "figure", "table", "list-table",
    "glossary", "rubric", "math",
})
# Directives whose argument is a title the reader sees (for the others it is a path or a label).
_TITLED = frozenset({
    "admonition", "dropdown", "tab-item", "card", "grid-item-card", "topic", "sidebar", "rubric", "table",
    "list-table",
})
# Any other directive is code: `{code-block} python`, `{testcode}`, and Quarto's `{python}`.
_CODE_WITH_LANGUAGE_ARGUMENT = frozenset({"code-block", "code", "sourcecode", "code-cell"})
# Roles shown as a link's text rather than as code.
_LINK_ROLES = frozenset({"ref", "doc", "term", "numref", "download", "any", "external"})


def directive_name(first_line: str) -> str | None:
    """The directive a fence opens (```` ```{note} ```` → ``note``), or None for a plain fence."""
    match = _DIRECTIVE_FENCE.match(first_line.rstrip("\r\n"))
    return match.group(2).split(":")[-1].lower() if match else None


def _body_lines(lines: list[str]) -> list[str]:
    """The directive's body: the lines after its opening, without the options that lead it (and
    the closing fence, when there is one)."""
    marker = _DIRECTIVE_FENCE.match(lines[0].rstrip("\r\n")).group(1)  # type: ignore[union-attr]
    body = lines[1:]
    if body and body[-1].strip() and set(body[-1].strip()) == {marker[0]} and len(body[-1].strip()) >= len(marker):
        body = body[:-1]
    start = 0
    while start < len(body) and _OPTION.match(body[start].rstrip("\r\n")):
        start += 1
    return body[start:]


def directive_text(fence: str) -> tuple[str, bool]:
    """A whole directive code fence (```` ``` ```` or ``~~~``, from its opening line to its closing
    fence; fences.split_fenced finds them) as what the reader sees, and
    whether that is code. Options and markup are gone; a directive whose content is not on the
    page gives ''."""
    lines = fence.splitlines(keepends=True)
    match = _DIRECTIVE_FENCE.match(lines[0].rstrip("\r\n"))
    assert match is not None, "not a directive fence"
    marker, name, argument = match.group(1), match.group(2).split(":")[-1].lower(), match.group(3)
    if name in _NOT_ON_THE_PAGE:
        return "", False
    body = "".join(_body_lines(lines))
    if name in _TEXT:
        text = (f"{argument}\n\n" if argument and name in _TITLED else "") + body
        return (text if text.endswith("\n") or not text else text + "\n"), False
    language = (argument.split() or [""])[0] if name in _CODE_WITH_LANGUAGE_ARGUMENT else name
    if body and not body.endswith("\n"):
        body += "\n"
    return f"{marker}{language}\n{body}{marker}\n", True


def _role_text(match: re.Match[str]) -> str:
    if match.group(1) is None:  # inline code: as it is
        return match.group(0)
    name, inner = match.group(1).split(":")[-1].lower(), match.group(2)
    shown = _ROLE_TEXT.match(inner)
    text = (shown.group(1) if shown and shown.group(1) else inner.strip("<>")).lstrip("~!")
    return text if name in _LINK_ROLES else f"`{text}`"


def clean_roles(prose: str) -> str:
    """Roles as their text: ``{ref}`Ray Data <data>``` → ``Ray Data``; a code role stays inline
    code: ``{class}`ray.data.Dataset``` → `` `ray.data.Dataset` ``."""
    return _ROLE_OR_CODE.sub(_role_text, prose)


def drop_colon_fence_options(prose: str) -> str:
    """The option lines that follow a ``:::{name}`` opening (the fence itself stays: a callout is
    kept whole by the chunker)."""
    out: list[str] = []
    in_options = False
    for line in prose.splitlines(keepends=True):
        if in_options and _OPTION.match(line.rstrip("\r\n")):
            continue
        match = _DIRECTIVE_FENCE.match(line.rstrip("\r\n"))
        in_options = bool(match and match.group(1)[0] == ":")
        out.append(line)
    return "".join(out)
