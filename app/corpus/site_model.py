"""What a site's configuration says of its pages (Site), as each framework's reader fills it
(app/corpus/site.py, app/corpus/site_code.py), and why a file is not a page (Exclusion)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from functools import cache
from typing import Any, NamedTuple

import pathspec

from app.corpus.myst import Build

DOCUSAURUS_CONFIGS = ("docusaurus.config.js", "docusaurus.config.ts", "docusaurus.config.mjs", "docusaurus.config.cjs")
SPHINX_CONFIG = "conf.py"
_MAX_DEPTH = 30  # nesting of a navigation read at most
# The files MkDocs builds pages from (mkdocs.utils.markdown_extensions, MkDocs 1.6.1).
MKDOCS_SUFFIXES = (".markdown", ".mdown", ".mkdn", ".mkd", ".md")
_PAGE_SUFFIX = re.compile(r"\.(mdx?|rst|ipynb)$")


@cache
def _gitignore(lines: tuple[str, ...]) -> pathspec.PathSpec:
    """Gitignore lines read as MkDocs reads exclude_docs (pathspec's GitIgnoreSpec)."""
    return pathspec.GitIgnoreSpec.from_lines(lines)


def stem(path: str) -> str:
    """A page's path as navigation names it: no extension, no leading slash."""
    return _PAGE_SUFFIX.sub("", path.strip().lstrip("/"))


class Exclusion(NamedTuple):
    """Why a file is not a page of the site: `kind` for counting (one of KINDS), `reason` for a person."""

    kind: str
    reason: str


REDIRECT, OUTSIDE, HIDDEN, FRONT_MATTER, NOT_BUILT = (
    "redirect", "outside the navigation", "hidden in the navigation", "hidden by front matter", "never built")
KINDS = (REDIRECT, OUTSIDE, HIDDEN, FRONT_MATTER, NOT_BUILT)


@dataclass(frozen=True)
class NavPage:
    place: tuple[str, ...]  # the labels it stands under, outermost first
    hidden: bool = False  # under a hidden tab or group that no searchable one re-includes


@dataclass
class Site:
    """What a source's site configuration says of its pages."""

    framework: str = "files"  # mintlify, mkdocs, docusaurus, sphinx, or files (every page is a page)
    config: str | None = None  # the file read
    listed: dict[str, NavPage] = field(default_factory=dict)  # page stem → its entry (first place)
    every_page_listed: bool = True  # no navigation that lists pages: all of them are in it
    index_hidden: bool = False  # Mintlify's seo.indexing "all"
    redirects: list[tuple[str, str]] = field(default_factory=list)  # (source pattern, destination)
    not_built: tuple[re.Pattern[str], ...] = ()  # Sphinx's exclude_patterns: files the site never builds
    # MkDocs' exclude_docs and draft_docs (with its own `.*` and `/templates/`): gitignore lines,
    # matched under `docs_prefix` (kept as text: a Site's repr is part of every page key).
    gitignored: tuple[str, ...] = ()
    mintignored: tuple[str, ...] = ()  # Mintlify: its default ignores and `.mintignore`'s lines (gitignore lines)
    docs_prefix: str = ""
    markdown_extensions: str = ""  # MkDocs: the Python-Markdown extensions its pages are read with (JSON)
    # Docusaurus: the docs folder (judged by the sidebars), then the other folders it builds pages
    # from (blog, src/pages: every page a page); a file in none of them is never built.
    built_folders: tuple[str, ...] | None = None
    myst: Build = Build()  # Sphinx: what conf.py says of its MyST pages (substitutions, tags)
    warnings: list[str] = field(default_factory=list)

    def is_partial(self, path: str) -> bool:
        """A file the site pastes into pages and never publishes as one (a Docusaurus `_…` file or
        folder: its docs and blog plugins' default `exclude`); snippets folders are
        `snippets.is_snippet_path`, for every site."""
        return self.framework == "docusaurus" and any(part.startswith("_") for part in path.split("/"))

    def _mkdocs_exclusion(self, path: str, front: Mapping[str, Any]) -> Exclusion | None:
        # MkDocs builds pages from the Markdown files of its docs_dir only (MKDOCS_SUFFIXES); an
        # `.mdx` file there is copied as it is, never a page.
        if not path.startswith(self.docs_prefix):
            return Exclusion(NOT_BUILT, f"outside the docs_dir of {self.config}: never built")
        if not path.endswith(MKDOCS_SUFFIXES):
            return Exclusion(NOT_BUILT, "not a Markdown file to MkDocs (it builds .md, not .mdx): never built")
        if self.gitignored and _gitignore(self.gitignored).match_file(path[len(self.docs_prefix):]):
            return Exclusion(NOT_BUILT, f"named by exclude_docs or draft_docs of {self.config}: never built")
        # Material for MkDocs' search plugin leaves such a page out of the site's search.
        search = front.get("search")
        if isinstance(search, Mapping) and _flag(search, "exclude") is True:
            return Exclusion(FRONT_MATTER, "its front matter says search: exclude: true")
        return None

    def _mintlify_exclusion(self, path: str, front: Mapping[str, Any]) -> Exclusion | None:
        if _gitignore(self.mintignored).match_file(path):
            return Exclusion(NOT_BUILT, "matched by .mintignore or Mintlify's default ignores: never built")
        if _flag(front, "hidden") is True and not self.index_hidden:
            return Exclusion(FRONT_MATTER, "its front matter says hidden: true")
        if _flag(front, "noindex") is True:  # not a hidden page: seo.indexing "all" keeps it out
            return Exclusion(FRONT_MATTER, "its front matter says noindex: true")
        if _flag(front, "searchable") is False:
            return Exclusion(FRONT_MATTER, "its front matter says searchable: false")
        return None

    def exclusion(self, path: str, front: Mapping[str, Any]) -> Exclusion | None:
        """Why the page at `path` (relative to the source's folder) is not a page of the site, with its
        front matter `front`; None when it is."""
        page = stem(path)
        for source, destination in self.redirects:
            if _redirect_matches(source, page):
                return Exclusion(REDIRECT, f"a redirect to {destination}")
        if self.framework == "mintlify" and (mintlify := self._mintlify_exclusion(path, front)) is not None:
            return mintlify
        if self.framework == "docusaurus" and self.built_folders is not None:
            folder = next((f for f in self.built_folders if f in ("", ".") or path.startswith(f + "/")), None)
            if folder is None:
                return Exclusion(NOT_BUILT, f"outside the folders {self.config} builds "
                                            f"({', '.join(self.built_folders)}): never built")
            if folder != self.built_folders[0] and not _flag(front, "draft") and not _flag(front, "unlisted"):
                return None  # a blog post or a page: the sidebars list docs only
        if self.framework == "docusaurus":
            for key in ("unlisted", "draft"):
                if _flag(front, key) is True:
                    return Exclusion(FRONT_MATTER, f"its front matter says {key}: true")
        if self.framework == "mkdocs" and (mkdocs := self._mkdocs_exclusion(path, front)) is not None:
            return mkdocs
        if self.framework == "sphinx":
            if any(pattern.match(path) for pattern in self.not_built):
                return Exclusion(NOT_BUILT, f"matched by exclude_patterns of {self.config}: never built")
            if _flag(front, "orphan") is True:
                return None  # published outside every toctree, as its author says
        if self.every_page_listed:
            return None
        entry = self.listed.get(page)
        if entry is None:
            return None if self.index_hidden else Exclusion(OUTSIDE, f"outside the navigation of {self.config}")
        if entry.hidden and not self.index_hidden:
            return Exclusion(HIDDEN, f"in a hidden tab or group of {self.config}")
        return None

    def spec_note(self, path: str, front: Mapping[str, Any]) -> str | None:
        """A warning for a Mintlify page generated from an OpenAPI operation (`openapi:` in its front
        matter): Mintlify writes the operation's parameters and responses from the spec, after the
        page's text; docschat reads no spec."""
        operation = front.get("openapi")
        if self.framework != "mintlify" or not isinstance(operation, str):
            return None
        return (f"{path}: generated from an OpenAPI spec (openapi: {operation[:200]}); docschat reads no spec: "
                "only what the page writes is indexed")

    def place(self, path: str) -> tuple[str, ...]:
        entry = self.listed.get(stem(path))
        return entry.place if entry else ()

    def page_orders(self) -> dict[str, int]:
        """Page stem → its position in the navigation's order (0 first), for a navigation that lists
        pages; {} when every page is in it (no navigation: pages go by path). Stored with each
        section (docs_section.page_order) so that readers order pages as the site does."""
        return {} if self.every_page_listed else {page: number for number, page in enumerate(self.listed)}


def _flag(front: Mapping[str, Any], key: str) -> bool | None:
    value = front.get(key)
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return None


def _redirect_matches(pattern: str, page: str) -> bool:
    """A redirect source (`/old/page`, `/blog/:slug`, `/api/:path*`) against a page stem."""
    source = stem(pattern.split("#", 1)[0].split("?", 1)[0])
    if ":" not in source and "*" not in source:
        return source == page or (source + "/index") == page
    glob = re.sub(r":[A-Za-z0-9_]+\*", "**", source)
    glob = re.sub(r":[A-Za-z0-9_]+", "*", glob)
    if fnmatchcase(page, glob) and ("**" in glob or "/" not in page[len(glob.split("*", 1)[0]):]):
        return True
    return glob.endswith("/**") and page == glob[:-3]
