"""MyST markup (Sphinx's Markdown): which directives the built page shows, and as what.

markdown-it-py and mdit-py-plugins read MyST's syntax (directive fences, ``%`` comments, targets,
roles: app/corpus/markdown.py); what a directive shows is Sphinx's, and is said here:

- A directive that pulls in something the page does not hold (a file, an image, a table of
  contents, raw output), or whose content is built only under a condition (``{only}``,
  ``{ifconfig}``), shows nothing.
- An admonition or container (note, warning, dropdown, tab-item, …) shows its text: its argument
  when that is text (a title), then its body, options gone, its headings bold titles.
- Any other directive is code (``{code-block} python``, ``{eval-rst}``, Quarto's ``{python}``): a
  code fence in its language; a known directive loses its options. In ``{eval-rst}``,
  reStructuredText's hidden directives (``.. only::``) and comments go too.
- A role shows its text: ``{ref}`Ray Data <data>``` → ``Ray Data``, ``{class}`ray.data.Dataset``` →
  `` `ray.data.Dataset` ``.
"""

from __future__ import annotations

import re

_OPTION = re.compile(r"^[ \t]*:([\w-]+):(?:[ \t](.*))?$")
_YAML_OPTIONS = re.compile(r"^[ \t]*---[ \t]*\n(?:.*\n)*?[ \t]*---[ \t]*\n")
DIRECTIVE = re.compile(r"\{([\w:-]+)\}(.*)", re.DOTALL)  # a fence's info string: `{name} argument`

# Content built only under a condition (`{only} internal`, `{ifconfig}`): the public site may never
# show it, and the index must not either.
_SHOWN_ONLY_UNDER_A_CONDITION = frozenset({
    "only", "ifconfig",
    "todo",  # Sphinx shows it only with todo_include_todos
})
# Page machinery Sphinx shows nothing of: index entries, HTML meta tags (myst-parser refuses
# `{meta}`), authors (shown only with show_authors), LaTeX column specs, the highlight language.
_MACHINERY = frozenset({"index", "meta", "sectionauthor", "moduleauthor", "codeauthor", "tabularcolumns", "highlight"})
NOT_ON_THE_PAGE = _SHOWN_ONLY_UNDER_A_CONDITION | _MACHINERY | {
    "literalinclude", "include", "image", "toctree", "raw", "contents", "autosummary", "automodule",
    "autoclass", "autofunction", "automethod", "autoattribute", "autodata", "plot",
}
# Directives whose body is text the reader reads (admonitions, containers, tabs, cards, tables).
TEXT = frozenset({
    "note", "tip", "hint", "important", "warning", "caution", "danger", "error", "attention", "seealso",
    "admonition", "dropdown", "tab-set", "tab-item", "card", "grid", "grid-item", "grid-item-card",
    "topic", "sidebar", "margin", "versionadded", "versionchanged", "deprecated", "button-ref",
    "button-link", "div", "container", "epigraph", "pull-quote", "figure", "table", "list-table",
    "glossary", "rubric",
})
# Of those, the ones whose argument is not text the reader sees (a path, a label, a layout, a tag).
ARGUMENT_NOT_SHOWN = frozenset({
    "figure", "button-ref", "button-link", "grid", "grid-item", "div", "container", "tab-set",
})
# Any other directive is code: `{code-block} python`, `{testcode}`, `{eval-rst}`, Quarto's `{python}`.
CODE_WITH_LANGUAGE_ARGUMENT = frozenset({"code-block", "code", "sourcecode", "code-cell"})
# Directives known to take options; an unknown one's `:word:` lines are its content (a YAML cell).
_WITH_OPTIONS = NOT_ON_THE_PAGE | TEXT | CODE_WITH_LANGUAGE_ARGUMENT | {
    "testcode", "testoutput", "doctest", "testsetup", "testcleanup", "jupyter-execute", "ipython", "eval-rst",
    "math",
}
# Roles shown as a link's text rather than as code.
LINK_ROLES = frozenset({"ref", "doc", "term", "numref", "download", "any", "external"})


def name(written: str) -> str:
    """A directive's or role's name without its domain: ``py:class`` → ``class``."""
    return written.split(":")[-1].lower()


def directive_options(content: str, directive: str) -> tuple[dict[str, str], str]:
    """A directive's options (`:name: value` lines, or a `---` YAML block) and its body without
    them, for a directive known to take options; an unknown one's content is all body."""
    if directive not in _WITH_OPTIONS:
        return {}, content
    lines = content.splitlines(keepends=True)
    options: dict[str, str] = {}
    start = 0
    while start < len(lines) and (option := _OPTION.match(lines[start].rstrip("\r\n"))):
        options[option.group(1).lower()] = (option.group(2) or "").strip()
        start += 1
    text = "".join(lines[start:])
    yaml = _YAML_OPTIONS.match(text) if start == 0 else None
    if yaml is None:
        return options, text
    for line in yaml.group(0).splitlines()[1:-1]:  # `tags: [remove-cell]`: read as the lines say
        key, _, value = line.partition(":")
        options[key.strip().lower()] = value.strip()
    return options, text[yaml.end():]


# Cells and doctest blocks Sphinx runs but never shows: setup and cleanup blocks, and any block
# with `:hide:` (sphinx.ext.doctest) or a `remove-cell`/`remove-input` tag (MyST-NB, jupyter-book).
_NEVER_SHOWN = frozenset({"testsetup", "testcleanup"})
_HIDE_OPTION = frozenset({"testcode", "doctest", "testoutput"})
_REMOVING_TAGS = frozenset({"remove-cell", "remove_cell", "remove-input", "remove_input"})


def hidden(directive: str, options: dict[str, str]) -> bool:
    """Whether the built page shows nothing of the directive."""
    if directive in NOT_ON_THE_PAGE or directive in _NEVER_SHOWN:
        return True
    if directive in _HIDE_OPTION and "hide" in options:
        return True
    tags = re.findall(r"[\w-]+", options.get("tags", ""))
    return any(tag in _REMOVING_TAGS for tag in tags)


# reStructuredText's explicit markup: `.. name:: argument`, a target `.. _label:`, a footnote or
# citation `.. [1]`, a substitution `.. |name|`; anything else after `..` is a comment. No Python
# parser of MyST reads reStructuredText (docutils would run its directives): read here.
_RST_EXPLICIT = re.compile(r"^([ \t]*)\.\.(?:[ \t]+(.*))?$")
_RST_DIRECTIVE = re.compile(r"([\w:-]+)::")
_RST_NOT_COMMENT = re.compile(
    r"[\w:-]+::"  # a directive
    r"|_(?:`[^`]+`|[^`:\s][^:]*):(?:\s|$)|__(?:\s|$)"  # a target `_name: url`, an anonymous one
    r"|\[[^\]\s]+\](?:\s|$)"  # a footnote or citation `[1]`
    r"|\|[^|\s][^|]*\|(?:\s|$)"  # a substitution `|name|`
)


# `.. raw::` goes too, as ``{raw}`` does (and the page machinery, as in MyST): raw HTML is written into the page, where the browser reads
# it (a comment or a hidden element in it shows nothing: not shown as the code it is here), and the
# HTML build drops raw LaTeX.
_RST_NOT_SHOWN = _SHOWN_ONLY_UNDER_A_CONDITION | _MACHINERY | {"raw"}


def shown_rst(body: str) -> str:
    """An ``{eval-rst}`` body less what the site never shows: a directive shown only under a
    condition (``.. only:: internal``), raw output (``.. raw:: html``) or a comment (``.. a note``),
    each with its indented block.
    The rest stays code, as written (``.. autoclass:: ray.data.Dataset`` names what the section is
    about)."""
    shown: list[str] = []
    hidden: int | None = None  # the indent of the hidden block's opening line
    for line in body.splitlines(keepends=True):
        bare = line.rstrip("\r\n")
        # docutils indents with any whitespace (a no-break space too): counted as one column each.
        indent = len(bare) - len(bare.lstrip())
        if hidden is not None:
            if not bare.strip() or indent > hidden:
                continue
            hidden = None
        explicit = _RST_EXPLICIT.match(bare)
        if explicit:
            rest = explicit.group(2) or ""
            directive = _RST_DIRECTIVE.match(rest)
            conditional = directive is not None and name(directive.group(1)) in _RST_NOT_SHOWN
            if conditional or not _RST_NOT_COMMENT.match(rest):
                hidden = indent
                continue
        shown.append(line)
    return "".join(shown)


def role_text(inner: str) -> str:
    """What a role shows: the text of MyST's explicit title ("Text <target>" → "Text"), else its
    content, less a leading `~` or `!`. The title is found from the last `<`, not by a regex, which
    took quadratic time on a long run of spaces."""
    opening = inner.rfind("<")
    if inner.endswith(">") and opening >= 1 and inner[opening - 1].isspace() and ">" not in inner[opening + 1 : -1]:
        inner = inner[:opening].rstrip()
    return inner.lstrip("~!")
