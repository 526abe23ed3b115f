"""Gitignore lines as the frameworks read them (pathspec's GitIgnoreSpec): MkDocs' exclude_docs
and draft_docs, Mintlify's .mintignore (app/corpus/site_model.py)."""

from __future__ import annotations

import re
from functools import cache
from typing import Any, NamedTuple

import pathspec

# Between two sets of lines matched apart (MkDocs' exclude_docs, with its own `.*` and
# `/templates/`, and its draft_docs: mkdocs.structure.files.set_exclusions): a `!` line of one
# never re-includes what the other names. No line of a YAML file or a gitignore file holds a NUL.
APART = "\x00"


class _Either(NamedTuple):
    specs: tuple[Any, ...]  # PathSpec or _Either

    def match_file(self, path: str) -> bool:
        return any(spec.match_file(path) for spec in self.specs)


@cache
def gitignore(lines: tuple[str, ...], ignore_case: bool = False) -> pathspec.PathSpec | _Either:
    """Gitignore lines read as MkDocs reads exclude_docs (pathspec's GitIgnoreSpec); with
    `ignore_case`, as Mintlify's `ignore` package reads them (its default: any case). A line it
    cannot compile (`!`, `[z-a]`) is left out, as git and Mintlify's `ignore` leave it, rather than
    failing every page of the site. Sets of lines separated by APART match apart: a file is named
    when any set names it."""
    if APART in lines:
        at = lines.index(APART)
        return _Either((gitignore(lines[:at], ignore_case), gitignore(lines[at + 1:], ignore_case)))

    def valid(line: str) -> bool:
        try:
            pathspec.GitIgnoreSpec.from_lines([line]).match_file("x")
        except (ValueError, re.error):
            return False
        return True

    spec = pathspec.GitIgnoreSpec.from_lines([line for line in lines if valid(line)])
    for pattern in spec.patterns if ignore_case else ():
        if isinstance(pattern, pathspec.RegexPattern) and pattern.regex is not None:
            pattern.regex = re.compile(pattern.regex.pattern, re.IGNORECASE)
    return spec
