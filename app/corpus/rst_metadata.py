"""A reStructuredText page's metadata: the field list before anything else on it but comments
(docutils' DocInfo, which Sphinx keeps as the page's metadata and does not show): `:orphan:` (a
page outside every toctree, built), `:nosearch:`, and docschat's `:audience:`, read as front matter.

A field's value runs on over its indented lines (and blank lines between them), as docutils reads a
field body; fields may be separated by blank lines. A declaring field (`:audience:`, `:public:`)
anywhere else on the page, which Sphinx shows as a field list of the body and never reads as
metadata, makes the page internal (rst_stray_audience), as a declaration Markdown front matter
does not read does: the author meant to restrict it."""

from __future__ import annotations

import re
from typing import Any

from docutils.statemachine import string2lines

from app.corpus.frontmatter import declaring_key

__all__ = ["rst_metadata", "rst_stray_audience"]

_COMMENT_OR_BLANK = re.compile(r"(?:[ \t]*\n|\.\.(?:[ \t][^\n]*)?\n(?:(?:[ \t]+[^\n]*)?\n)*)")
_FIELD = re.compile(r"(?:[ \t]*\n)*:((?:[^:\\\n]|\\.)+):(?:[ \t]+([^\n]*))?[ \t]*\n")
_BODY_LINE = re.compile(r"(?:[ \t]*\n)*[ \t]+(\S[^\n]*)\n")  # a field body's next line: indented
# A field line anywhere on the page (a body's field list, or one inside a directive).
_ANY_FIELD = re.compile(r"^[ \t]*:((?:[^:\\\n]|\\.)+):(?:[ \t]|$)", re.MULTILINE)


def _lines(text: str) -> str:
    """The page's lines as docutils splits them (`\r\n`, `\r`, `\x85`, U+2028 end a line too; a tab
    is spaces): a declaration docutils reads must be read here too (adv36rst: a page of `\r` lines
    declaring `:audience: internal` was public)."""
    return "\n".join(string2lines(text.lstrip("\ufeff"), convert_whitespace=True)) + "\n"


def _leading_fields(text: str) -> tuple[dict[str, Any], int]:
    """The leading field list's fields (a field with no value is True, as Sphinx takes its
    presence) and where it ends, in `_lines(text)`."""
    at, fields = 0, {}
    text = _lines(text)
    while (skipped := _COMMENT_OR_BLANK.match(text, at)) and skipped.end() > at:
        at = skipped.end()
    while field := _FIELD.match(text, at):
        value, at = [(field.group(2) or "").strip()], field.end()
        while line := _BODY_LINE.match(text, at):
            value, at = [*value, line.group(1).strip()], line.end()
        fields[field.group(1).strip().lower()] = " ".join(filter(None, value)) or True
    return fields, at


def rst_metadata(text: str) -> dict[str, Any]:
    """The page's metadata, as front matter."""
    return _leading_fields(text)[0]


def rst_stray_audience(text: str) -> str | None:
    """Why the page seems to declare who may see it where docschat reads no declaration (None when
    nothing does): a declaring field outside the leading field list, or one of it spelled almost as
    one (`:audeince:`, a Cyrillic а). The caller makes the page internal."""
    fields, end = _leading_fields(text)
    for key in fields:
        if key not in ("audience", "audiences", "public") and (name := declaring_key(key)) is not None:
            return f"field :{key}: reads as {name!r} but is not it; the page is internal"
    body = _lines(text)[end:]
    for found in _ANY_FIELD.finditer(body):
        if (name := declaring_key(found.group(1).strip())) is not None:
            return (f"{name!r} is declared in a field list that is not the page's first element, where Sphinx "
                    "does not read it as metadata; the page is internal")
    return None
