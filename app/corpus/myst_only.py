"""`{only}`'s expression: whether Sphinx's HTML build certainly shows its content."""

from __future__ import annotations

import re
from typing import Protocol


class Build(Protocol):
    """What of myst.Build `{only}` reads (not imported: myst imports this module)."""

    @property
    def changed_tags(self) -> tuple[str, ...] | None: ...

# `{only}`'s expression as Sphinx evaluates it (sphinx.util.tags.Tags.eval_condition: Jinja's
# `and`, `or`, `not` and parentheses over tag names, a name true when the build has the tag),
# reimplemented because Sphinx is not a dependency (its evaluator is Jinja's parser). In three
# values: a tag is certain only for the default HTML build (`sphinx-build -b html`: html,
# format_html, builder_html; another builder's or format's tag is false), unknown otherwise (conf.py
# or `-t` may add it). Content is shown only when the expression is certainly true: `{only}
# internal` stays hidden. A constant (`true`), `if`/`else` or anything else Jinja reads is not
# decided here (Sphinx shows a block whose expression fails, with a warning: hidden here).
_HTML_TAGS = frozenset({"html", "format_html", "builder_html"})
_OTHER_BUILDS = ("latex", "text", "man", "texinfo", "epub", "xml", "pseudoxml", "json", "pickle", "dirhtml",
                 "singlehtml", "linkcheck", "gettext", "changes", "dummy", "qthelp", "devhelp", "applehelp", "htmlhelp")
_NOT_HTML_TAGS = frozenset(f"{prefix}{b}" for b in _OTHER_BUILDS for prefix in ("", "format_", "builder_"))
_JINJA_WORDS = frozenset({"and", "or", "not", "if", "else", "in", "is", "true", "false", "none", "True", "False", "None"})


def only_built(expression: str, build: Build) -> bool:
    """Whether `{only} expression`'s content is certainly on the site's HTML pages."""
    tokens = re.findall(r"[^\W\d]\w*|\S", expression)

    def tag(name: str) -> bool | None:
        if build.changed_tags is None or name in build.changed_tags:
            return None
        return True if name in _HTML_TAGS else False if name in _NOT_HTML_TAGS else None

    def either(at: int) -> tuple[bool | None, int]:  # Jinja's parse_or, parse_and, parse_not
        value, at = both(at)
        while tokens[at:at + 1] == ["or"]:
            right, at = both(at + 1)
            value = True if True in (value, right) else None if None in (value, right) else False
        return value, at

    def both(at: int) -> tuple[bool | None, int]:
        value, at = negated(at)
        while tokens[at:at + 1] == ["and"]:
            right, at = negated(at + 1)
            value = False if False in (value, right) else None if None in (value, right) else True
        return value, at

    def negated(at: int) -> tuple[bool | None, int]:
        if tokens[at] == "not":
            value, at = negated(at + 1)
            return (None if value is None else not value), at
        if tokens[at] == "(":
            value, at = either(at + 1)
            if tokens[at:at + 1] != [")"]:
                raise ValueError("no closing parenthesis")
            return value, at + 1
        if tokens[at] in _JINJA_WORDS or not re.fullmatch(r"[^\W\d]\w*", tokens[at]):
            raise ValueError(tokens[at])
        return tag(tokens[at]), at + 1

    try:
        value, end = either(0)
    except (ValueError, IndexError, RecursionError):
        return False
    return value is True and end == len(tokens)
