"""reStructuredText inside MyST (``{eval-rst}``): what its explicit markup shows on the built page
(myst.py says what MyST's own directives show)."""

from __future__ import annotations

import re
import textwrap

from app.corpus.myst import OPTION_LINE, Build, classes, name, only_built, raw_html, rst_hidden

# reStructuredText's explicit markup: `.. name:: argument`, a footnote or citation `.. [1]` (shown),
# a target `.. _label: url` or a substitution definition `.. |name| replace:: …` (shown nowhere,
# or only where the page refers to them: as Sphinx builds them, `tests/data/myst-probes`); anything
# else after `..` is a comment. No Python parser of MyST reads reStructuredText (docutils would run
# its directives): read here.
_RST_EXPLICIT = re.compile(r"^([ \t]*)(?:\.\.|__(?=[ \t]))(?:[ \t]+(.*))?$")  # `__ url`: an anonymous target
_RST_DIRECTIVE = re.compile(r"([\w:-]+)::")
_RST_NOT_COMMENT = re.compile(
    r"[\w:-]+::"  # a directive
    r"|\[[^\]\s]+\](?:\s|$)"  # a footnote or citation `[1]`
)


def _rst_raw_html(argument: str, block: list[str]) -> str:
    """`.. raw:: argument`'s HTML, from its indented block as docutils reads it: up to the first
    blank line, the argument's continued lines, then option lines (another line: no HTML); then
    the content."""
    lines = textwrap.dedent("".join(block)).splitlines(keepends=True)
    head = next((at for at, line in enumerate(lines) if not line.strip()), len(lines))
    split = next((at for at, line in enumerate(lines[:head]) if line.lstrip().startswith(":")), head)
    options = [OPTION_LINE.match(line.rstrip("\r\n")) for line in lines[split:head]]
    if not all(options):
        return ""
    return raw_html(" ".join([argument, *lines[:split]]), {o.group(1).lower(): o.group(2) or "" for o in options if o},
                    "".join(lines[head:]))


def _rst_options(lines: list[str], at: int) -> dict[str, str]:
    """The option lines (`:hide:`) of the directive opening at line `at`: those under it, before
    its first blank line."""
    options: dict[str, str] = {}
    for line in lines[at + 1:_rst_block_end(lines, at)]:
        if not line.strip() or not (option := OPTION_LINE.match(line.rstrip("\r\n"))):
            break
        options[option.group(1).lower()] = (option.group(2) or "").strip()
    return options


def _rst_block_end(lines: list[str], at: int) -> int:
    """Where the explicit markup block opening at line `at` ends: after the lines below it that are
    blank or indented past it (docutils indents with any whitespace, a no-break space too: counted
    as one column each)."""
    indent = len(lines[at]) - len(lines[at].lstrip())
    end = at + 1
    while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > indent):
        end += 1
    return end


# A directive's options whose values the build shows nowhere: an image's alternative text and
# size, a label or name (a link target), a link (myst-probes `eval-rst-options.md`). Left out of the
# code; the other option lines stay (a `:caption:`, a `:header:`, a `{confval}`'s `:default:`
# show, and `:class:` lines are read for classes: rst_classed).
_UNSHOWN_OPTIONS = frozenset({"alt", "label", "name", "target", "width", "height", "scale", "align", "figwidth"})


def shown_rst(body: str, build: Build) -> list[tuple[str, str]]:
    """An ``{eval-rst}`` body less what the site never shows: a directive shown only under a
    condition (``.. only:: internal``), raw output for another format, or a comment (``.. a note``),
    each with its indented block. The rest stays code, as written (``.. autoclass::
    ray.data.Dataset`` names what the section is about): ("rst", code) pieces, and ("html", …)
    where a ``.. raw:: html`` writes HTML into the page. An ``.. only::`` whose expression
    only_built finds certainly true stays (its argument on one line: one continued on the next is
    not decided)."""
    pieces: list[tuple[str, str]] = []
    shown: list[str] = []
    lines = body.splitlines(keepends=True)
    at = 0
    while at < len(lines):
        explicit = _RST_EXPLICIT.match(lines[at].rstrip("\r\n"))
        rest = (explicit.group(2) or "") if explicit else ""
        directive = _RST_DIRECTIVE.match(rest)
        named = name(directive.group(1)) if directive else ""
        argument = rest[directive.end():] if directive else ""
        shown_only = named == "only" and (at + 1 == len(lines) or not lines[at + 1].strip()) and only_built(argument, build)
        # A directive the site does not define shows nothing, as in MyST (Build.defined).
        if explicit and not shown_only and (rst_hidden(named, _rst_options(lines, at), build.todos) or not _RST_NOT_COMMENT.match(rest)
                                            or directive is not None and not build.defined(directive.group(1))):
            end = _rst_block_end(lines, at)
            if named == "raw":
                pieces += [("rst", "".join(shown)), ("html", _rst_raw_html(argument, lines[at + 1:end]))]
                shown = []
            at = end
            continue
        shown.append(lines[at])
        at += 1
        while directive is not None and at < len(lines) and (option := OPTION_LINE.match(lines[at].rstrip("\r\n"))):
            if option.group(1).lower() not in _UNSHOWN_OPTIONS:
                shown.append(lines[at])
            at += 1
    return [*pieces, ("rst", "".join(shown))]


# `:class:`, and sphinx-design's `:class-container:`, `:class-title:`, … (myst.classes reads them all).
_RST_CLASS_OPTION = re.compile(r"^[ \t]+:(class(?:-[\w-]+)?):[ \t]*(.*)$")


def rst_classed(rst: str) -> list[tuple[list[str], str]]:
    """Shown reStructuredText (shown_rst's) in pieces, (classes, text): a directive whose
    `:class:` option (or a `container`'s argument) names classes is a piece of its own, with its
    indented block and the classes Sphinx gives it (`classes`); [] for the rest."""
    lines = rst.splitlines(keepends=True)
    pieces: list[tuple[list[str], str]] = []
    plain: list[str] = []
    at = 0
    while at < len(lines):
        bare = lines[at].rstrip("\r\n")
        explicit = _RST_EXPLICIT.match(bare)
        directive = _RST_DIRECTIVE.match(explicit.group(2) or "") if explicit else None
        if explicit and directive:
            end = _rst_block_end(lines, at)
            options = {m.group(1).lower(): m.group(2) for line in lines[at + 1:end]
                       if (m := _RST_CLASS_OPTION.match(line.rstrip("\r\n")))}
            found = classes(name(directive.group(1)), (explicit.group(2) or "")[directive.end():], options)
            if found:
                pieces += [([], "".join(plain)), (found, "".join(lines[at:end]))]
                plain, at = [], end
                continue
        plain.append(lines[at])
        at += 1
    return [*pieces, ([], "".join(plain))]
