"""What a cross-reference label names besides a MyST heading (app/corpus/myst_xref.py): a figure's,
table's or code block's caption, and reStructuredText's own labels (`.. _label:`) in an
`{eval-rst}` block or an `.rst` page, with the section title, caption or page title Sphinx shows.

Recorded: tests/data/myst-xref (Sphinx 9.0.4, myst-parser 5.2.0, scripts/record_myst_xref.py).
reStructuredText is read here by its line syntax, not by docutils (not a dependency, and it would
run the directives): targets, section titles (an underline, or an overline too, of one punctuation
character), and the directives that carry a caption; a label before anything else (a paragraph, a
figure without a caption) names nothing, as in Sphinx ("A title or caption not found").
"""

from __future__ import annotations

import re
import textwrap

from app.corpus import myst

# `.. _label:` with no URL after it (one with a URL is a link target, never a section's label).
_TARGET = re.compile(r"^\.\. _(?:`(?P<quoted>[^`]+)`|(?P<bare>[^`:][^:]*)):[ \t]*$")
_DIRECTIVE = re.compile(r"^\.\.[ \t]+(?P<name>[\w:.+-]+)::(?:[ \t]+(?P<argument>.*))?$")
# A section title's adornment: one of docutils' punctuation characters, repeated (at least 4, or
# as long as the title: a shorter run is a paragraph's text).
_ADORNMENT = re.compile(r"""^([!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~])\1*[ \t]*$""")
# Directives whose caption a label names: the figure's first paragraph, a table's argument, a
# code block's `:caption:` (Sphinx's enumerable nodes).
FIGURES = frozenset({"figure"})
TABLES = frozenset({"table", "list-table", "csv-table"})
CODE = frozenset({"code-block", "sourcecode", "code", "literalinclude"})


def directive_caption(directive: str, argument: str, options: dict[str, str], body: str) -> str | None:
    """The caption (as written) a label on this directive names, None when it has none."""
    if directive in FIGURES:
        caption = " ".join(re.split(r"\n[ \t]*\n", body.strip(), maxsplit=1)[0].split())
    elif directive in TABLES:
        caption = argument
    elif directive in CODE:
        caption = options.get("caption", "")
    else:
        return None
    return caption or None


def rst_shown(text: str) -> str:
    """A reStructuredText title's words as a reference shows them: its inline markup read (roles,
    literals, emphasis, a link's text). Read from its first 2,000 characters: a title is a line,
    and a lazy match over a hostile line of a megabyte would take quadratic time."""
    text = text[:2000]
    text = re.sub(r":[\w:+.-]+:`([^`]*)`", lambda m: myst.role_text(m[1]), text)
    text = re.sub(r"``(.+?)``", r"\1", text)
    text = re.sub(r"`([^`<]*?)\s*<[^`>]*>`__?", r"\1", text)
    text = re.sub(r"`([^`]+)`_{0,2}", r"\1", text)
    text = re.sub(r"\*\*(.+?)\*\*|\*(.+?)\*", lambda m: m[1] or m[2], text)
    return " ".join(text.replace("\\", "").split())


def _section_title(lines: list[str], at: int) -> tuple[str, int] | None:
    """The section title starting at line `at` and the line after it, or None."""
    line = lines[at]
    after = lines[at + 1] if at + 1 < len(lines) else ""
    if _ADORNMENT.match(line) and at + 2 < len(lines) and lines[at + 2].rstrip() == line.rstrip() and lines[at + 1].strip():
        return lines[at + 1].strip(), at + 3  # overline, title, underline
    if line[:1].isspace() or _ADORNMENT.match(line) or not _ADORNMENT.match(after):
        return None
    size = len(after.rstrip())
    return (line.strip(), at + 2) if size >= 4 or size >= len(line.rstrip()) else None


def _block_end(lines: list[str], at: int) -> int:
    """The line after the indented block (blank lines within it) that follows line `at`."""
    end = at + 1
    while end < len(lines) and (not lines[end].strip() or lines[end][:1].isspace()):
        end += 1
    return end


def rst_labels(text: str) -> tuple[str | None, list[tuple[str, str]]]:
    """A reStructuredText text's first section title (an `.rst` page's title) and each label with
    the title it names (consecutive targets name the same thing)."""
    lines = text.replace("\r\n", "\n").split("\n")
    first, labels, pending = None, [], []
    at = 0
    while at < len(lines):
        line = lines[at]
        if not line.strip() or line[:1].isspace():
            at += 1
            continue
        if (target := _TARGET.match(line)) is not None:
            pending.append(target["quoted"] or target["bare"].strip())
            at += 1
            continue
        if (section := _section_title(lines, at)) is not None:
            title = rst_shown(section[0])
            first = first or title
            labels += [(label, title) for label in pending]
            pending, at = [], section[1]
            continue
        if (directive := _DIRECTIVE.match(line)) is not None:
            end = _block_end(lines, at)
            # Its options read as a MyST figure's are (`:name: value` lines first).
            options, body = myst.directive_options(textwrap.dedent("\n".join(lines[at + 1:end])), "figure")
            name = myst.name(directive["name"])
            caption = directive_caption(name, (directive["argument"] or "").strip(), options, body)
            named = [*pending, *([options["name"]] if options.get("name") else [])]
            labels += [(label, rst_shown(caption)) for label in named] if caption else []
            pending, at = [], end
            continue
        pending = []  # a paragraph, a comment or a list: its label names nothing
        if line.startswith(".."):
            at = _block_end(lines, at)
        else:  # a paragraph runs to a blank line
            while at < len(lines) and lines[at].strip():
                at += 1
    return first, labels
