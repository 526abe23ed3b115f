"""MyST's `{include}` as myst-parser's include directive reads it: the file named relative to the
page's folder (`/x` relative to the site's folder, as Sphinx's relfn2path says; docutils'
`<standard>` includes are none of the site's), cut by its `start-line`/`end-line` (a slice of its
lines), then `start-after`/`end-before` (the text after or before the first match), and shown as
the page's own MyST, or as code with `literal` or `code`."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping

# Front matter at the start of what is included: myst-parser reads it as front matter, never shown
# (checked with sphinx-build 9.0.4, myst-parser 5.2.0); a literal or code include shows it.
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(?:.*?\n)?---[ \t]*(?:\n|\Z)", re.DOTALL)


def included_path(page: str, argument: str) -> str | None:
    """The site path `{include} argument` on `page` names; None for one outside the site."""
    written = "".join(part.strip() for part in argument.splitlines())
    if not written or written.startswith("<") and written.endswith(">"):
        return None
    joined = written.lstrip("/") if written.startswith("/") else posixpath.join(posixpath.dirname(page), written)
    path = posixpath.normpath(joined)
    return None if path == ".." or path.startswith(("../", "/")) else path


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
