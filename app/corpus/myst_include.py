"""MyST's `{include}` as myst-parser's include directive reads it: the file named relative to the
page's folder (`/x` relative to the site's folder, as Sphinx's relfn2path says, for an include in an
included file too; docutils' `<standard>` includes are none of the site's), cut by its
`start-line`/`end-line` (a slice of its lines), then `start-after`/`end-before` (the text after or
before the first match), and shown as the page's own MyST, or as code with `literal` or `code`.

Sphinx reads the file from the checkout, anywhere: docschat reads it from the source's repository
at the commit read (compose.py), never a path leading out of it. myst-parser keeps no record of
what it is including: a file including itself (or two including each other) makes Sphinx fail with
a RecursionError (sphinx-build 9.0.4, myst-parser 5.2.0: no page is built), and here the page is
refused with that error, but only when the same part of the same file comes round again (its path
and cut options): a page pasting a part of itself that holds no such include is built (LXD's
installing.md repeats its own `newgrp` note so). Nothing bounds what Sphinx
pastes: a file included many times in files included many times pastes exponentially many copies,
so a page pastes at most MAX_INCLUDES files and MAX_INCLUDED_CHARS characters (as MkDocs'
snippets, snippets.py), the rest left out with a warning."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from app.corpus.myst_literalinclude import NotShown, literal_text

# Front matter at the start of what is included: myst-parser reads it as front matter, never shown
# (checked with sphinx-build 9.0.4, myst-parser 5.2.0); a literal or code include shows it.
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(?:.*?\n)?---[ \t]*(?:\n|\Z)", re.DOTALL)
MAX_INCLUDES = 500
MAX_INCLUDED_CHARS = 1_000_000
# The options that say which part of a file an include pastes (included_text).
_CUT = ("start-line", "end-line", "start-after", "end-before")


class IncludeCycle(ValueError):
    """A file including itself, as Sphinx never ends reading it (it fails with a RecursionError)."""


def included_path(page: str, argument: str) -> str | None:
    """The path `{include} argument` on `page` names, relative to the site's folder (`../x`: out of
    it); None for none (a docutils `<standard>` include, or nothing written)."""
    written = "".join(part.strip() for part in argument.splitlines())
    if not written or written.startswith("<") and written.endswith(">"):
        return None
    joined = written.lstrip("/") if written.startswith("/") else posixpath.join(posixpath.dirname(page), written)
    return posixpath.normpath(joined)


def included_text(text: str | None, options: Mapping[str, str]) -> str | None:
    """The part of the file's `text` the directive shows; None (Sphinx shows nothing, with an
    error) when the file is not there, a line option is not a number, or a `start-after` or
    `end-before` text is not in it."""
    if text is None:
        return None
    try:
        start, end = (int(options[o]) if options.get(o) else None for o in ("start-line", "end-line"))
    except ValueError:
        return None
    text = "\n".join(text.splitlines()[start:end])
    for option in ("start-after", "end-before"):
        if not (mark := options.get(option)):
            continue
        if (at := text.find(mark)) < 0:
            return None
        text = text[at + len(mark):] if option == "start-after" else text[:at]
    return text if {"literal", "code"} & options.keys() else _FRONT_MATTER.sub("", text)


@dataclass
class PageIncludes:
    """What the `{include}`s of one page paste: `read` gives the text of a path relative to the
    site's folder (None when the page may not read it: compose.py warns why)."""

    page: str
    read: Callable[[str], str | None]
    warnings: list[str]
    left: list[int] = field(default_factory=lambda: [MAX_INCLUDES, MAX_INCLUDED_CHARS])

    def paste(self, argument: str, options: Mapping[str, str], including: tuple[str, ...]) -> tuple[str, str] | None:
        """(part, text) of what `{include} argument` shows, inside the parts `including` (the
        chain of includes it is in: each a path and its cut options); None when nothing is shown."""
        path = included_path(self.page, argument)
        if path is None:
            return None
        part = path + "".join(f" :{o}: {options[o]}" for o in _CUT if options.get(o))
        if part in (self.page, *including) and not {"literal", "code"} & options.keys():  # code is not read
            raise IncludeCycle(f"{{include}} {' -> '.join((self.page, *including, part))}: a file including "
                               "itself (Sphinx fails with a RecursionError)")
        if self.left[0] < 0:
            return None  # warned of when the bound was passed
        text = included_text(self.read(path), options)
        if text is None:
            return None
        self.left[0] -= 1
        pasted = self._pasted(path, text)
        return (part, text) if pasted else None

    def literal(self, argument: str, options: Mapping[str, str]) -> str | None:
        """The code a `{literalinclude} argument` shows (myst_literalinclude.py), None when
        nothing: in the same bounds as the page's includes (a file read as code includes nothing,
        so it makes no cycle)."""
        path = included_path(self.page, argument)
        if path is None or self.left[0] < 0 or (text := self.read(path)) is None:
            return None
        try:
            shown = literal_text(text, options)
        except NotShown:
            return None
        self.left[0] -= 1
        pasted = self._pasted(path, shown, "{literalinclude}")
        return pasted[1] if pasted else None

    def _pasted(self, path: str, text: str, directive: str = "{include}") -> tuple[str, str] | None:
        """(path, text), counted against the page's bounds; None (and one warning) past them."""
        if len(text) > self.left[1] or self.left[0] < 0:
            self.left[0] = -1
            self.warnings.append(f"{self.page}: {directive} {path} not pasted, nor any after it: a page pastes at most "
                                 f"{MAX_INCLUDES} files or {MAX_INCLUDED_CHARS:,} characters")
            return None
        self.left[1] -= len(text)
        return path, text
