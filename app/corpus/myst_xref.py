"""The titles MyST's `{ref}`, `{doc}` and `{any}` roles show when written without one.

Sphinx shows `{ref}`label`` as the title of the section the label names (`(label)=` right before a
heading), `{doc}`path`` as the title of that document (its first heading), and `{any}` as either,
a label first. The titles are the site's, not the page's: they are looked up site-wide, once, from
every MyST page of the site (a pure step: the pages in, labels and document titles out), and each
page's roles are rendered with them (app/corpus/markdown.py). Not found, the role shows its target
as written, as Sphinx does (it warns "undefined label", "unknown document").

A label may also name a figure's, table's or code block's caption (its `:name:`, or a `(label)=`
before it), and `.rst` pages and `{eval-rst}` blocks define labels too (`.. _label:`), an `.rst`
page its title (app/corpus/reference_targets.py).

Recorded: tests/data/myst-xref (Sphinx 9.0.4, myst-parser 5.2.0), scripts/record_myst_xref.py.
Not read: labels inside directives (a heading in a `{note}`), a directive's `name:` in a YAML
options block, notebooks' titles.

A page's key (app/corpus/compose.py) depends on the pages whose titles it showed; a `{doc}` found
or not depends on the target's files; a label not found depends on every Markdown and `.rst` page of the site
(EVERY_MARKDOWN_PAGE: any may define it later), so such a page is composed again when any of them
changes, is added or goes.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from collections.abc import Callable, Mapping

from app.corpus.frontmatter import FrontMatterError, parse_front_matter
from app.corpus.markdown import myst_sections
from app.corpus.reference_targets import rst_labels
from app.corpus.rst_objects import python_object_ids

# The files a `{doc}` may name, its docname and one of these (Sphinx's source_suffix as MyST sites
# set it, and notebooks): only Markdown pages' titles are read; the others are depended on.
DOC_SUFFIXES = (".md", ".ipynb", ".rst")
# A line that may define a label: a MyST target, `(label)=` (myst_blocks' rule reads fewer; a CRLF
# line's CR too), a directive's `:name:`, reStructuredText's `.. _label:`: pages without one define
# no label and are not parsed for labels.
_TARGET_LINE = re.compile(r"^[ \t]*(?:\(.*\)=[ \t\r]*|:name:.*|\.\. _.*)$", re.MULTILINE)
LABELLED = (".md", ".rst")  # the pages whose labels are read (a notebook's are not)


# A dependency of a page on every Markdown (or `.rst`) page of its site (a label it names and no page defines:
# any page may define it later). Never a path of a git tree, which never starts with `/`; compose
# gives it a blob id made of every `.md` and `.rst` path and blob id of the site.
EVERY_MARKDOWN_PAGE = "/every Markdown page"


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
        self._objects: dict[str, str] | None = None

    def _python_objects(self) -> dict[str, str]:
        """Each Python object the site's `.rst` pages describe, by id: the page describing it (a
        later page's, as Sphinx keeps the last one read)."""
        if self._objects is None:
            self._objects = {ident: path for path in sorted(p for p in self.files if p.endswith(".rst"))
                             if "::" in self.files[path] for ident in python_object_ids(self.files[path])}
        return self._objects

    def _sections(self, path: str) -> tuple[str | None, list[tuple[str, str]]]:
        """The page's document title and its labels with their sections' titles."""
        if path.endswith(".rst"):  # no front matter: its title is its first section's
            return rst_labels(self.files[path])
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
            for path in sorted(p for p in self.files if p.endswith(LABELLED)):
                if not _TARGET_LINE.search(self.files[path]):
                    continue  # no `(label)=` line: no label (a cheap test before parsing the page)
                for label, heading in self._sections(path)[1]:  # defined twice: the later page's
                    self._labels[_label(label)] = (heading, path)
        return self._labels

    def _doc_title(self, path: str) -> str | None:
        if path not in self._docs:
            self._docs[path] = self._sections(path)[0]
        return self._docs[path]

    def title(self, role: str, target: str, *, page: str, files: Mapping[str, str],
              shown: Callable[[str], bool] = lambda path: True) -> str | None:
        """What `{role}`target`` on `page` (its path in the site) shows, None when not found (the
        target is shown). `files` is the page's view of the site: asking it whether a path is there
        records the page's dependency on it. `shown(path)`: whether a title of the page at `path`
        may show on this one (a page the site never builds defines nothing; an internal page's
        titles never reach a public page): when not, the target is shown. A Python role's
        (`py:func`) target is an object's full name (`*.name`: the one ending so): found, that name."""
        if role.startswith("py:"):
            if target.startswith("*."):  # the one object whose name ends so (Sphinx's fuzzy search; several: none)
                ending = [name for name in self._python_objects() if name.endswith(target[1:])]
                target = ending[0] if len(ending) == 1 else target
            if (described := self._python_objects().get(target)) is not None and described in files:
                return target if shown(described) else None
            _ = EVERY_MARKDOWN_PAGE in files  # any `.rst` page may describe it later
            return None
        if role in ("ref", "any") and (found := self._read().get(_label(target))) is not None:
            title, path = found
            if path in files:  # the page depends on the one defining the label
                return title if shown(path) else None
        if role in ("doc", "any"):
            docname = posixpath.normpath(target[1:] if target.startswith("/")
                                         else posixpath.join(posixpath.dirname(page), target))
            for suffix in DOC_SUFFIXES:
                if docname + suffix in files:  # found or not, the page depends on these files
                    return self._doc_title(docname + suffix) if suffix in LABELLED and shown(docname + suffix) else None
        if role in ("ref", "any"):
            _ = EVERY_MARKDOWN_PAGE in files  # a label nowhere yet: any Markdown page may define it later
        return None


    def link(self, role: str, target: str, *, page: str, files: Mapping[str, str]) -> str | None:
        """Where a `:ref:` or `:doc:` on the `.rst` page `page` leads, as Sphinx links it: the page
        file (relative to `page`, which page_links resolves to its address) and the label's anchor
        (docutils' id of it), or a Python object's page and id. Asked once `title` found the title
        (its dependencies recorded then)."""
        if role.startswith("py:"):
            described = self._python_objects().get(target)
            return None if described is None else posixpath.relpath(described, posixpath.dirname(page) or ".") + f"#{target}"
        found = self._read().get(_label(target)) if role in ("ref", "any") else None
        anchor = _ANCHOR.sub("-", _label(target)).strip("-") if found is not None and found[1] in files else ""
        path = found[1] if found is not None and anchor else next((docname + suffix for suffix in DOC_SUFFIXES if role in ("doc", "any") and (
            docname := posixpath.normpath(target[1:] if target.startswith("/") else posixpath.join(posixpath.dirname(page), target)))
            + suffix in files), None)
        return None if path is None else posixpath.relpath(path, posixpath.dirname(page) or ".") + (f"#{anchor}" if anchor else "")

    def target(self, written: str, *, page: str, files: Mapping[str, str]) -> tuple[str, str] | None:
        """Where MyST's `[text](written)` leads when `written` is neither an address nor a file
        (myst-parser's resolve_myst_ref_any): the page defining the label `written` and the label's
        anchor, else the document `written` names (no anchor); None when neither is found. The page
        depends on what it looked for, as for `title`."""
        if (found := self._read().get(_label(written))) is not None and found[1] in files:
            return found[1], _ANCHOR.sub("-", _label(written)).strip("-")
        docname = posixpath.normpath(written[1:] if written.startswith("/") else posixpath.join(posixpath.dirname(page), written))
        for suffix in DOC_SUFFIXES:
            if docname + suffix in files:
                return docname + suffix, ""
        _ = EVERY_MARKDOWN_PAGE in files  # a label nowhere yet: any Markdown page may define it later
        return None


# docutils' make_id, for the labels written as anchors (ASCII: its Unicode folding is not needed for these).
_ANCHOR = re.compile(r"[^a-z0-9]+")


def with_every_markdown_page(blob_id: Callable[[str], str | None], files: Mapping[str, str],
                             prefix: str) -> Callable[[str], str | None]:
    """`blob_id` (a path's blob id in the source's tree), and for EVERY_MARKDOWN_PAGE a digest of
    every `.md` and `.rst` path of the site (under `prefix`) with its blob id: computed from the listing only,
    once, when a key depending on it is made or checked."""
    digest: list[str] = []

    def blob(path: str) -> str | None:
        if path != EVERY_MARKDOWN_PAGE:
            return blob_id(path)
        if not digest:
            pages = hashlib.sha256()
            for page in sorted(p for p in files if p.startswith(prefix) and p.endswith(LABELLED)):
                pages.update(f"{page}\t{blob_id(page)}\n".encode("utf-8", "backslashreplace"))
            digest.append(pages.hexdigest())
        return digest[0]

    return blob
