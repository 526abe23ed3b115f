"""The titles MyST's `{ref}`, `{doc}` and `{any}` roles show when written without one.

Sphinx shows `{ref}`label`` as the title of the section the label names (`(label)=` right before a
heading), `{doc}`path`` as the title of that document (its first heading), and `{any}` as either,
a label first. The titles are the site's, not the page's: they are looked up site-wide, once, from
every MyST page of the site (a pure step: the pages in, labels and document titles out), and each
page's roles are rendered with them (app/corpus/markdown.py). Not found, the role shows its target
as written, as Sphinx does (it warns "undefined label", "unknown document").

Recorded: tests/data/myst-xref (Sphinx 9.0.4, myst-parser 5.2.0), scripts/record_myst_xref.py.
Not read: labels in `{eval-rst}` blocks or `.rst` pages (docschat reads no reStructuredText
page), labels inside directives, and figures', tables' and code blocks' `:name:` (their captions).

A page's key (app/corpus/compose.py) depends on the pages whose titles it showed; a `{doc}` found
or not depends on the target's files; a label not found depends on every file (any page may
define it later): such a page has no key, and is composed at every sync.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping

from app.corpus.frontmatter import FrontMatterError, parse_front_matter
from app.corpus.markdown import myst_sections

# The files a `{doc}` may name, its docname and one of these (Sphinx's source_suffix as MyST sites
# set it, and notebooks): only Markdown pages' titles are read; the others are depended on.
DOC_SUFFIXES = (".md", ".ipynb", ".rst")
# A line that may be a MyST target, `(label)=` (myst_blocks' rule reads fewer; a CRLF line's CR
# too): pages without one define no label and are not parsed for labels.
_TARGET_LINE = re.compile(r"^[ \t]*\(.*\)=[ \t\r]*$", re.MULTILINE)


def _label(written: str) -> str:
    """A label as Sphinx matches it (docutils' fully_normalize_name; `{ref}` lowercases its target)."""
    return " ".join(written.split()).lower()


class SiteTitles:
    """The site's section labels and document titles (`files`: the site's files, paths in the site).
    Read when a role first needs them: the labels from the pages holding a target line, a
    document's title from its page when first named."""

    def __init__(self, files: Mapping[str, str]) -> None:
        self.files = files
        self._labels: dict[str, tuple[str, str]] | None = None
        self._docs: dict[str, str | None] = {}

    def _sections(self, path: str) -> tuple[str | None, list[tuple[str, str]]]:
        """The page's document title and its labels with their sections' titles."""
        try:
            front = parse_front_matter(self.files[path])
            (h1, first), sections = myst_sections(front.body)
        except (FrontMatterError, ValueError, RecursionError):  # the page is skipped: names nothing
            return None, []
        # Sphinx's document title is its first section's: a `#` heading. A page without one is
        # named by its front matter's title (myst_title_to_header makes it the heading; the shared
        # ray corpus moved each page's `#` heading there), else by its first heading.
        return h1 or (front.title if isinstance(front.title, str) and front.title else None) or first, sections

    def _read(self) -> dict[str, tuple[str, str]]:
        if self._labels is None:
            self._labels = {}
            for path in sorted(p for p in self.files if p.endswith(".md")):
                if not _TARGET_LINE.search(self.files[path]):
                    continue  # no `(label)=` line: no label (a cheap test before parsing the page)
                for label, heading in self._sections(path)[1]:  # defined twice: the later page's
                    self._labels[_label(label)] = (heading, path)
        return self._labels

    def _doc_title(self, docname: str) -> str | None:
        if docname not in self._docs:
            self._docs[docname] = self._sections(docname + ".md")[0]
        return self._docs[docname]

    def title(self, role: str, target: str, *, page: str, files: Mapping[str, str],
              shown: Callable[[str], bool] = lambda path: True) -> str | None:
        """What `{role}`target`` on `page` (its path in the site) shows, None when not found (the
        target is shown). `files` is the page's view of the site: asking it whether a path is there
        records the page's dependency on it. `shown(path)`: whether a title of the page at `path`
        may show on this one (a page the site never builds defines nothing; an internal page's
        titles never reach a public page): when not, the target is shown."""
        if role in ("ref", "any") and (found := self._read().get(_label(target))) is not None:
            title, path = found
            if path in files:  # the page depends on the one defining the label
                return title if shown(path) else None
        if role in ("doc", "any"):
            docname = posixpath.normpath(target[1:] if target.startswith("/")
                                         else posixpath.join(posixpath.dirname(page), target))
            for suffix in DOC_SUFFIXES:
                if docname + suffix in files:  # found or not, the page depends on these files
                    return self._doc_title(docname) if suffix == ".md" and shown(docname + suffix) else None
        if role in ("ref", "any"):
            _ = len(files)  # a label nowhere yet: the page depends on every file (it gets no key)
        return None
