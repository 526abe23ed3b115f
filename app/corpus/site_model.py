"""What a site's configuration says of its pages (Site), as each framework's reader fills it
(app/corpus/site.py, site_code.py, site_docusaurus.py), and why a file is not a page (Exclusion)."""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from fnmatch import fnmatchcase
from functools import cached_property
from typing import Any, NamedTuple
from urllib.parse import unquote

from app.corpus.gitignore_lines import gitignore as _gitignore
from app.corpus.mkdocs_blog import folder_meta_of, post_created
from app.corpus.mkdocs_plugins import search_hidden
from app.corpus.myst import Build
from app.corpus.reader import Admonitions, read_css_links

MKDOCS_FILES = ("mkdocs.yml", "mkdocs.yaml")
DOCUSAURUS_CONFIGS = ("docusaurus.config.js", "docusaurus.config.ts", "docusaurus.config.mjs", "docusaurus.config.cjs")
SPHINX_CONFIG = "conf.py"
_MAX_DEPTH = 30  # nesting of a navigation read at most
# The files MkDocs builds pages from (mkdocs.utils.markdown_extensions, MkDocs 1.6.1).
MKDOCS_SUFFIXES = (".markdown", ".mdown", ".mkdn", ".mkd", ".md")
_MODULE_SUFFIXES = (".js", ".jsx", ".ts", ".tsx", ".mjs")
_PAGE_SUFFIX = re.compile(r"\.(mdx?|rst|ipynb)$")
# An ESM import of a stylesheet at a line's start (`import './x.css';`, `import styles from …`).
_CSS_IMPORT = re.compile(r"""^import\s+(?:[\w$*{}\s,]+\s+from\s+)?["']([^"'\n]+\.css)["']""", re.MULTILINE)


# @mintlify/common 1.0.1183's getFileCategory: no page is built of a `.md` file of these names
# (any case, any folder), nor of an agent skill's `skill.md`.
_MINTLIFY_NOT_PAGES = ("readme.md", "license.md", "contributing.md", "contribute.md")


def mkdocs_shadowed(paths: list[str], prefix: str, gitignored: tuple[str, ...],
                    directory_urls: bool) -> tuple[tuple[str, str], ...]:
    """The pages of docs_dir (`prefix`) MkDocs never publishes because another is written to the
    same file, each with that other, as mkdocs.structure.files.get_files (1.6.1) decides: in one
    folder (sorted, `index` and `README` first) the later of two included files wins (`README.md`
    beside `index.md`, `a.markdown` beside `a.md`); across folders (`a.md`, `a/index.md`) the
    build writes the file it reaches later (os.walk, folders sorted) over the earlier one."""
    spec = _gitignore(gitignored)

    def order(name: str) -> tuple[tuple[str, ...], bool, str]:
        *folder, base = name.split("/")
        return tuple(folder), base.rsplit(".", 1)[0] not in ("index", "README"), base

    def dest(name: str) -> str:
        folder, _, base = name.rpartition("/")
        base = base.rsplit(".", 1)[0]
        base = "index" if base == "README" else base
        return posixpath.join(folder, base + ".html" if not directory_urls or base == "index" else base + "/index.html")

    names = sorted((p[len(prefix):] for p in paths if p.startswith(prefix) and p.endswith(MKDOCS_SUFFIXES)), key=order)
    shadowed: dict[str, str] = {}
    first: dict[tuple[tuple[str, ...], str], str] = {}
    for name in names:  # in one folder: get_files' "conflicts with"
        other = first.setdefault((order(name)[0], dest(name)), name)
        if other != name:
            loser, winner = (other, name) if not spec.match_file(name) else (name, other)
            shadowed[loser] = winner
    writer = {dest(n): n for n in names if n not in shadowed and not spec.match_file(n)}  # the last one written
    shadowed |= {n: writer[dest(n)] for n in names if n not in shadowed and writer.get(dest(n), n) != n}
    return tuple((prefix + loser, prefix + winner) for loser, winner in sorted(shadowed.items()))


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


class OpenApiEntry(NamedTuple):
    """Mintlify pages generated from an OpenAPI spec: one navigation entry naming an operation
    (`operation`: `GET /users`, `spec.json POST /users`, `webhook name`), or, with `operation`
    empty, every operation of `specs` (a docs.json `openapi` source on a tab, group or anchor that
    lists no pages). `specs`: the `openapi` sources in effect there (paths in the source, nearest
    first; empty: any spec of the source); `directory`: the folder generated pages are published
    under (the source's `directory`, else Mintlify's `api-reference`)."""

    operation: str
    specs: tuple[str, ...]
    place: tuple[str, ...]
    hidden: bool
    directory: str | None = None


@dataclass
class Site:
    """What a source's site configuration says of its pages."""

    framework: str = "files"  # mintlify, mkdocs, docusaurus, sphinx, vitepress, starlight, nextra, mdbook, or files (every page a page)
    config: str | None = None  # the file read
    listed: dict[str, NavPage] = field(default_factory=dict)  # page stem → its entry (first place)
    every_page_listed: bool = True  # no navigation that lists pages: all of them are in it
    index_hidden: bool = False  # Mintlify's seo.indexing "all"
    imported: tuple[str, ...] = ()  # Mintlify: Markdown files pages import (lower case): snippets, not pages
    redirects: list[tuple[str, str]] = field(default_factory=list)  # (source pattern, destination)
    # Files the site never builds: Sphinx's exclude/include_patterns, a Docusaurus instance's include/exclude.
    not_built: tuple[re.Pattern[str], ...] = ()
    # MkDocs' exclude_docs and draft_docs (with its own `.*` and `/templates/`), Mintlify's
    # .mintignore: gitignore lines, matched under `docs_prefix` (text: a Site's repr is in page keys).
    gitignored: tuple[str, ...] = ()
    docs_prefix: str = ""
    shadowed: tuple[tuple[str, str], ...] = ()  # MkDocs: (file, the file built in its place)
    # mkdocs-exclude's ("glob"/"regex", paths under docs_dir) and mkdocs-exclude-search's (mkdocs_plugins)
    plugin_excluded: tuple[tuple[str, str], ...] = ()
    # Material's meta plugin: (folder of a `.meta.yml` under docs_dir, its mapping as JSON), in the
    # order the plugin merges them; the front matter of every page under the folder starts from it.
    folder_meta: tuple[tuple[str, str], ...] = ()
    macros: str = ""  # MkDocs: mkdocs-macros-plugin's options and `extra` (JSON; app/corpus/mkdocs_macros.py)
    # Material's blog plugins: (posts folder under docs_dir, drafts built, a future date a draft)
    blogs: tuple[tuple[str, bool, bool], ...] = ()
    markdown_extensions: str = ""  # MkDocs: the Python-Markdown extensions its pages are read with (JSON)
    # Docusaurus: the folders it builds pages from (each docs instance's, the blog, src/pages); a
    # file in none of them is never built. Those of them whose sidebars were read are judged by
    # `listed`; in the others every page is a page.
    built_folders: tuple[str, ...] | None = None
    sidebar_folders: tuple[str, ...] = ()
    # (folder, route): the URL path a folder's pages are published under (a docs instance's
    # routeBasePath, "" for "/"); a page of no such folder is published at its path.
    routes: tuple[tuple[str, str], ...] = ()
    versions: tuple[str, ...] = ()  # Docusaurus: `versioned_docs/version-…/` folders versions.json lists
    locales: tuple[str, ...] = ()  # VitePress: the folders of its locales other than the root one (`zh/`)
    mdbook: str = ""  # mdBook: `{"hidelines": [output.html.code.hidelines], "editable": playground's}` as JSON, "" for none
    base: str | None = None  # VitePress: the URL path its site is published under (`base`, "/" by default)
    # file → why the site's reader left it out (site_vitepress.py, site_starlight.py, site_mintlify.py, …)
    left_out: dict[str, Exclusion] = field(default_factory=dict)
    # Docusaurus: (folder, what its plugin makes a box of): each docs instance's folders, "" first
    # for the others (the blog's and src/pages' own options are not read: their defaults).
    admonitions: tuple[tuple[str, Admonitions], ...] = ()
    # Docusaurus: (a doc's file, the path its slug publishes it at, under its folder, with a suffix)
    # where the two differ (number prefixes, front matter `slug` or `id`); VitePress: where its
    # srcDir, rewrites and cleanUrls publish it (`guide/x.html`).
    slugs: tuple[tuple[str, str], ...] = ()
    myst: Build = Build()  # Sphinx: what conf.py says of its MyST pages (substitutions, tags)
    rst_suffixes: tuple[str, ...] = ()  # Sphinx: the suffixes of its reStructuredText pages (source_suffix)
    # Mintlify: pages generated from OpenAPI specs (app/corpus/site_openapi.py), and the OpenAPI
    # files of the source (docs.json's `openapi` sources, then any JSON or YAML file that is one).
    openapi: tuple[OpenApiEntry, ...] = ()
    openapi_files: tuple[str, ...] = ()
    # The site's own stylesheets, linked from every page (Mintlify: every CSS file; MkDocs'
    # extra_css; Docusaurus's customCss; Sphinx's html_css_files): paths in the source.
    stylesheets: tuple[str, ...] = ()
    linked_stylesheets: tuple[str, ...] = ()  # URLs every page links (Docusaurus's `stylesheets`): by name
    # Rules for the classes the site's theme hides (app/corpus/theme_hiding.py), read before them.
    theme_css: str = field(default="", repr=False)
    _css: str | None = field(default=None, repr=False, compare=False)
    _css_paths: tuple[str, ...] = field(default=(), repr=False, compare=False)  # the above and their imports
    _css_files: tuple[str, ...] = field(default=(), repr=False, compare=False)  # every stylesheet of the tree
    warnings: list[str] = field(default_factory=list)

    def css(self, files: Mapping[str, str], page: str | None = None, text: str = "") -> str:
        """The text of the site's stylesheets that are in `files`, in their order (read once); with
        a `page` (its path and `text`), then those its ESM imports (`import './x.css'`, Docusaurus's
        `@site/…` from the site's folder), which the bundler applies with the page.

        The first call lists the stylesheets of `files` (those a URL may name): compose makes it with
        the tree itself, before any page, as a page's listing would make it depend on every path
        (repository_files.Recorder: no page key). Every stylesheet is in every key (`css_key`)."""
        if self._css is None:
            self._css_files = tuple(path for path in sorted(files) if path.lower().endswith(".css"))
            self._css_paths = _with_imports(files, self._css_files, [
                *(path for path in self.stylesheets if path in files), *_named_css(self._css_files, self.linked_stylesheets)])
            self._css = "\n".join([self.theme_css, *(files[path] for path in self._css_paths)] if self.theme_css
                                  else [files[path] for path in self._css_paths])
        imported = [posixpath.normpath(name[len("@site/"):] if name.startswith("@site/")
                                       else posixpath.join(posixpath.dirname(page), name))
                    for name in _CSS_IMPORT.findall(text)] if page and "import" in text else []
        return "\n".join([self._css, *(files[path] for path in imported if path in files)])

    def linked_css(self, files: Mapping[str, str], urls: tuple[str, ...]) -> str:
        """The text of the source's stylesheets a page links or imports by `urls` (`<link
        rel=stylesheet href="/x.css">`), and of those they import, but the site's own (`css`).

        A URL is matched by its file's name: every CSS file of the source of that name, wherever it
        is. Where a site serves a file depends on what is not in the page (the site's base URL,
        Docusaurus's `static/` folders, Sphinx's `_static/`, MkDocs' directory URLs): one of the
        same name elsewhere is applied too (more hidden, never less). A URL of another site is
        matched so as well (the source may hold a copy of it); a file the source lacks is not read."""
        self.css(files)
        return "\n".join(files[path] for path in _with_imports(files, self._css_files, _named_css(self._css_files, urls),
                                                               self._css_paths))

    def modules(self, files: Mapping[str, str], page: str, sources: tuple[str, ...]) -> dict[str, str | None]:
        """The text of each module an MDX `page` imports components from (`sources` as written), as
        its bundler finds it: `./x` from the page's folder, `/x` from the source's root (Mintlify's
        `/snippets/x.jsx`), `@site/x` from the site's folder; with or without its suffix, or its
        folder's `index`. None for one the source does not hold (a guess stays)."""
        site_folder = posixpath.dirname(self.config or "")
        found: dict[str, str | None] = {}
        for source in sources:
            base = (posixpath.join(site_folder, source[len("@site/"):]) if source.startswith("@site/")
                    else source.lstrip("/") if source.startswith("/") else posixpath.join(posixpath.dirname(page), source))
            base = posixpath.normpath(base)
            found[source] = next((files[p] for p in (base, *(base + s for s in _MODULE_SUFFIXES),
                                                      *(f"{base}/index{s}" for s in _MODULE_SUFFIXES)) if p in files), None)
        return found

    def css_key(self, files: Mapping[str, str]) -> bytes:
        """Every stylesheet of the source, for page keys: any page may link any of them; and the
        theme's rules (a new record changes what pages show)."""
        return hashlib.sha256(json.dumps([self.theme_css, *((p, files[p]) for p in sorted(files) if p.lower().endswith(".css"))]).encode()).digest()

    def shown_description(self, description: str | None) -> str | None:
        """A page's front matter `description` where its site shows it on the page: Mintlify under
        the title (and most renderers of plain pages); Docusaurus and MkDocs put it only in <meta>,
        Sphinx nowhere: not on their pages, not indexed."""
        return description if self.framework in ("mintlify", "files") else None

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
        relative = path[len(self.docs_prefix):]
        if self.gitignored and _gitignore(self.gitignored).match_file(relative):
            return Exclusion(NOT_BUILT, f"named by exclude_docs or draft_docs of {self.config}: never built")
        if any(fnmatchcase(relative, p) if kind == "glob" else kind == "regex" and re.match(p, relative)
               for kind, p in self.plugin_excluded):
            return Exclusion(NOT_BUILT, f"named by the exclude plugin of {self.config}: never built")
        if search_hidden(relative, self.plugin_excluded):  # as Material's `search: exclude` below
            return Exclusion(HIDDEN, f"left out of the site's search by the exclude-search plugin of {self.config}")
        if (built := dict(self.shadowed).get(path)) is not None:
            return Exclusion(NOT_BUILT, f"MkDocs builds {built} at its URL: never built")
        for posts, drafts_built, future_is_draft in self.blogs:  # as the plugin's _is_excluded
            if drafts_built or not relative.startswith(posts):
                continue
            if (draft := _flag(front, "draft")) is True:
                return Exclusion(FRONT_MATTER, "a blog post whose front matter says draft: true: never built")
            if draft is None and future_is_draft and not _dated_before_now(front.get("date")):
                return Exclusion(FRONT_MATTER, "a blog post dated in the future (draft_if_future_date): never built")
        # Material for MkDocs' search plugin leaves such a page out of the site's search.
        search = front.get("search")
        # Python's truthiness, as the plugin reads it (SearchIndex.add_entry_from_context: `if
        # search.get("exclude")`): `exclude: "false"` or `1` leaves the page out too.
        if isinstance(search, Mapping) and search.get("exclude"):
            return Exclusion(FRONT_MATTER, "its front matter says search: exclude: true")
        return None

    def _docusaurus_exclusion(self, path: str, front: Mapping[str, Any]) -> Exclusion | None:
        if any(pattern.match(path) for pattern in self.not_built):
            return Exclusion(NOT_BUILT, f"left out by the include or exclude of {self.config} (docs, blog, pages): never built")
        if self.built_folders is not None and _within(path, self.built_folders) is None:
            version = next((v for v in self.versions if path.startswith(v)), None)
            if version is not None:
                return Exclusion(NOT_BUILT, f"in {version.rstrip('/')}, a version of the docs other than the current "
                                            "one (versions.json): only the current docs are indexed")
            return Exclusion(NOT_BUILT, f"outside the folders {self.config} builds "
                                        f"({', '.join(self.built_folders)}): never built")
        # Docusaurus finds a plugin's files with globby, whose globs skip dot files and folders
        # (plugin-content-docs' readVersionDocs: no `dot` option): `docs/.drafts/x.md` is never built.
        folder = _within(path, self.built_folders) if self.built_folders is not None else ""
        relative = path if folder in (None, "", ".") else path[len(folder) + 1:]
        if any(part.startswith(".") for part in relative.split("/")):
            return Exclusion(NOT_BUILT, "a dot file or in a dot folder, which Docusaurus's globs skip: never built")
        for key in ("unlisted", "draft"):
            if _flag(front, key) is True:
                return Exclusion(FRONT_MATTER, f"its front matter says {key}: true")
        return None

    def mintlify_exclusion(self, path: str, front: Mapping[str, Any]) -> Exclusion | None:
        """Why Mintlify leaves the page at `path` out of its search (ignored, or as its front matter
        `front` says), whatever its navigation; None when it does not."""
        if _gitignore(self.gitignored, ignore_case=True).match_file(path):
            return Exclusion(NOT_BUILT, "named by .mintignore (or Mintlify's own ignores): never built")
        lower = path.lower()
        if posixpath.basename(lower) in _MINTLIFY_NOT_PAGES:
            return Exclusion(NOT_BUILT, "a README, LICENSE or CONTRIBUTING Markdown file, of which Mintlify "
                                        "builds no page: never built")
        # A page of the navigation that a page imports too is left a page (whether Mintlify builds it
        # then is not known): the rule decides where `seo.indexing: "all"` would index it.
        if lower in self.imported and stem(path) not in self.listed:
            return Exclusion(NOT_BUILT, "imported by a page as a snippet, of which Mintlify builds no page: never built")
        if lower == "skill.md" or lower.startswith(".mintlify/skills/") and lower.endswith("/skill.md"):
            return Exclusion(NOT_BUILT, "an agent skill file, of which Mintlify builds no page: never built")
        # JavaScript's truthiness, as Mintlify's navigation reads a page's `hidden` (@mintlify/common's
        # filterDivisions, getFirstPageFromNavigation: `if (page.hidden)`): `hidden: "yes"`, `1`,
        # `"false"` hide; `noindex` read alike, and a `searchable` JavaScript reads as false, or the
        # string "false", leaves the page out (fail closed: the schema wants booleans).
        if _js_truthy(front.get("hidden")) and not self.index_hidden:
            return Exclusion(FRONT_MATTER, "its front matter says hidden: true")
        if _js_truthy(front.get("noindex")):  # not a hidden page: seo.indexing "all" keeps it out
            return Exclusion(FRONT_MATTER, "its front matter says noindex: true")
        searchable = front.get("searchable")
        if _flag(front, "searchable") is False or (searchable is not None and not _js_truthy(searchable)):
            return Exclusion(FRONT_MATTER, "its front matter says searchable: false")
        return None

    def front(self, path: str, front: Any) -> Any:
        """The page's front matter (a frontmatter.FrontMatter: not imported, frontmatter imports the
        sources, which import this module) as its site reads it: on MkDocs with Material's meta plugin, the
        `.meta.yml` of its folders beneath it (merged as the plugin merges, lists added to, the page's
        own values last; a folder matches as the plugin's `startswith` matches it); on Sphinx, no `title`;
        on Mintlify and Docusaurus as js-yaml reads it (`hidden: no` is a string, true to Mintlify's
        `if (page.hidden)`)."""
        front = front.as_javascript() if self.framework in ("mintlify", "docusaurus", "starlight") else front
        if self.framework == "sphinx" and "title" in front.data and not self.myst.for_page(front.data).title_to_header:
            # myst-parser keeps front matter as metadata; `title` shows only as myst_title_to_header's heading
            front = replace(front, data={key: value for key, value in front.data.items() if key != "title"})
        return replace(front, data=folder_meta_of(self.folder_meta, path, front.data)) if self.folder_meta else front

    def exclusion(self, path: str, front: Mapping[str, Any]) -> Exclusion | None:
        """Why the page at `path` (relative to the source's folder) is not a page of the site, with its
        front matter `front`; None when it is."""
        page = stem(path)
        for source, destination in self.redirects:
            if _redirect_matches(source, page):
                return Exclusion(REDIRECT, f"a redirect to {destination}")
        if path in self.left_out:  # judged by its site's reader (another language or version, …)
            return self.left_out[path]
        if self.framework == "mintlify" and (mintlify := self.mintlify_exclusion(path, front)) is not None:
            return mintlify
        if self.framework == "docusaurus":
            if (docusaurus := self._docusaurus_exclusion(path, front)) is not None:
                return docusaurus
            if self.built_folders is not None and _within(path, self.built_folders) not in self.sidebar_folders:
                return None  # a blog post, a page, a doc of an instance with no sidebars: a page
        if self.framework == "nextra":  # every page it builds is published; its `_meta` files only place them
            return None
        if self.framework == "vitepress":  # every page it builds is published; its sidebar only places them
            locale = next((f for f in self.locales if self.url_path(path).startswith(f)), None)
            return None if locale is None else Exclusion(HIDDEN, f"a page of the locale {locale.rstrip('/')!r} of "
                                                                  f"{self.config}: the root locale's search leaves it out")
        if self.framework == "mkdocs" and (mkdocs := self._mkdocs_exclusion(path, front)) is not None:
            return mkdocs
        if self.framework == "sphinx":
            if any(pattern.match(path) for pattern in self.not_built):
                return Exclusion(NOT_BUILT, f"not a source of {self.config} (exclude_patterns, include_patterns, "
                                            "template or asset folders, or no extension reads Markdown): never built")
            # Sphinx leaves a page whose metadata has `nosearch` (any value) out of its search
            # (StandaloneHTMLBuilder.index_page): as Material's `search: exclude`, out of the assistant's.
            if "nosearch" in front or "no-search" in front:
                return Exclusion(FRONT_MATTER, "its front matter says nosearch: left out of the site's search")
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

    @cached_property
    def _slug_paths(self) -> dict[str, str]:
        return dict(self.slugs)

    @cached_property
    def published_files(self) -> dict[str, str]:
        """A page's published path (`.md`: its VitePress relativePath) → its file, where they differ."""
        return {re.sub(r"\.html$", ".md", url): path for path, url in self.slugs}

    def url_path(self, path: str) -> str:
        """The path the site publishes the page at, with its file's suffix (chunker.page_route
        makes the route of it): a Docusaurus docs instance's pages under its routeBasePath
        (`pnpr-docs/cli.md` → `pnpr/cli.md`), src/pages' at the root; else the page's own path."""
        path = self._slug_paths.get(path, path)
        folder = _within(path, tuple(f for f, _ in self.routes))
        if folder is None:
            return path
        route = dict(self.routes)[folder]
        rest = path if folder in ("", ".") else path[len(folder) + 1:]
        return f"{route}/{rest}" if route else rest

    def admonitions_of(self, path: str) -> Admonitions | None:
        """What Docusaurus makes a box of on the page at `path` (None: not a Docusaurus site)."""
        if self.framework != "docusaurus":
            return None
        folder = _within(path, tuple(f for f, _ in self.admonitions))
        return Admonitions() if folder is None else dict(self.admonitions)[folder]

    def place(self, path: str) -> tuple[str, ...]:
        entry = self.listed.get(stem(path))
        return entry.place if entry else ()

    def page_orders(self) -> dict[str, int]:
        """Page stem → its position in the navigation's order (0 first), for a navigation that lists
        pages; {} when every page is in it (no navigation: pages go by path). Stored with each
        section (docs_section.page_order) so that readers order pages as the site does."""
        return {} if self.every_page_listed else {page: number for number, page in enumerate(self.listed)}


def _css_name(url: str) -> str:
    """A stylesheet URL's file name, lowercased, as a server finds it ('' for none)."""
    path = re.split(r"[?#]", url, maxsplit=1)[0]
    return unquote(path.rsplit("/", 1)[-1]).lower()


def _named_css(stylesheets: tuple[str, ...], urls: tuple[str, ...]) -> list[str]:
    """The `stylesheets` (paths) a URL of `urls` names, by file name."""
    names = {name for url in urls if (name := _css_name(url))}
    return [path for path in stylesheets if posixpath.basename(path).lower() in names]


def _with_imports(files: Mapping[str, str], stylesheets: tuple[str, ...], paths: list[str],
                  known: tuple[str, ...] = ()) -> tuple[str, ...]:
    """`paths` and the `stylesheets` they `@import` (by name, as `Site.linked_css`),
    in order, each once, none of `known`; at most 100."""
    found: list[str] = []
    waiting = list(paths)
    while waiting and len(found) < 100:
        path = waiting.pop(0)
        if path in found or path in known:
            continue
        found.append(path)
        waiting.extend(_named_css(stylesheets, read_css_links(files[path])))
    return tuple(found)


def _within(path: str, folders: tuple[str, ...]) -> str | None:
    """The innermost of `folders` holding `path` ("" or "." holds every path)."""
    holding = [f for f in folders if f in ("", ".") or path.startswith(f + "/")]
    return max(holding, key=lambda f: 0 if f in ("", ".") else len(f), default=None)


def _js_truthy(value: Any) -> bool:
    """Whether JavaScript reads a YAML value as true: all but null, false, 0, NaN and ""."""
    if isinstance(value, (int, float)):  # bool included: False == 0
        return value == value and value != 0  # NaN != NaN
    return not (value is None or value == "")


def _flag(front: Mapping[str, Any], key: str) -> bool | None:
    value = front.get(key)
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return None


def _dated_before_now(value: Any) -> bool:
    """Whether a blog post's `date` (or `date: {created: …}`) is past; False when unreadable."""
    created = post_created(value)
    if created is None:
        return False
    if not isinstance(created, datetime):
        created = datetime(created.year, created.month, created.day)
    return (created if created.tzinfo else created.replace(tzinfo=UTC)) <= datetime.now(UTC)


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
