"""sphinx.ext.extlinks: conf.py's `extlinks` (`{"issue": ("https://…/issues/%s", "#%s")}`) makes a
role of each name, `:issue:`123`` a link to the URL with the part filled in, its text the caption
so filled (`#123`), the URL itself when the caption is None, or a title of its own (`text <123>`).

Read from conf.py's literal value only (site_code.py reads it with `ast`, never runs it): an entry
code makes is not known, and its role shows as docutils shows a role it does not know."""

from __future__ import annotations

from typing import Any

__all__ = ["conf_extlinks", "extlink"]


def conf_extlinks(values: dict[str, Any]) -> tuple[tuple[str, str, str | None], ...]:
    """conf.py's literal `extlinks` entries (its literal ones when code makes others), each a name,
    a base URL and a caption (None: the URL shows)."""
    written = values.get("extlinks", values.get("extlinks.entries"))
    if not isinstance(written, dict):
        return ()
    return tuple((name.lower(), entry[0], entry[1]) for name, entry in sorted(written.items(), key=lambda item: str(item[0]))
                 if isinstance(name, str) and isinstance(entry, (tuple, list)) and len(entry) == 2
                 and isinstance(entry[0], str) and (entry[1] is None or isinstance(entry[1], str)))


def extlink(extlinks: tuple[tuple[str, str, str | None], ...], name: str, text: str) -> tuple[str, str] | None:
    """The text and URL `:name:`text`` shows as Sphinx's extlinks role makes them; None when the
    site defines no such link (or its `%`-formatting fails, where Sphinx stops the build)."""
    found = next(((base, caption) for each, base, caption in extlinks if each == name.lower()), None)
    if found is None:
        return None
    opening = text.rfind("<")
    explicit = text.endswith(">") and opening >= 1  # Sphinx's split_explicit_title
    part = text[opening + 1:-1] if explicit else text
    try:
        url = found[0] % part
        title = text[:opening].rstrip() if explicit else url if found[1] is None else found[1] % part
    except (TypeError, ValueError, KeyError):
        return None
    return title, url
