"""Where a source's site is: its framework's configuration at the source's folder, else in one of
its subfolders (a repository read from its root, its site in `website/` or `docs/`).

A site decides which of its files are pages (app/corpus/site.py). Read from the repository's root,
a site in a subfolder used to be missed, and its folder read as plain Markdown: drafts, partials and
pages outside its navigation indexed. So the source's subfolders are searched, `MAX_DEPTH` folders
down, for a configuration (`docs.json`/`mint.json` with a navigation, `mkdocs.yml`,
`docusaurus.config.*`, a Sphinx `conf.py`, VitePress's `.vitepress/config.*`, a Next.js config
beside Nextra's `_meta` files, mdBook's `book.toml`), skipping folders no site is built from (installed packages, build
output, hidden folders):

- one site found: the source is read as that site builds it, its hrefs where the site publishes
  its pages; a file outside the site's folder is never indexed (the site does not publish it);
- several: the source fails, naming them: one source reads one site;
- none: every page is a page, as before.

The source's `site` (docschat.toml; DOCS_SITE) chooses instead: a folder, or "." for the source's
own folder only (no search: without a configuration there, every file is a page).
"""

from __future__ import annotations

import ast
import json
import posixpath
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

from app.config import DOCS_INCLUDE, Settings
from app.corpus.chunker import chunk_page
from app.corpus.compose_result import ComposeResult
from app.corpus.site import MINTLIFY_FILES
from app.corpus.site_jupyter_book import JUPYTER_BOOK_TOC, is_jupyter_book_toc
from app.corpus.site_mdbook import MDBOOK_CONFIG
from app.corpus.site_model import DOCUSAURUS_CONFIGS, MKDOCS_FILES, NOT_BUILT, SPHINX_CONFIG, Exclusion
from app.corpus.site_nextra import NEXT_CONFIGS, nextra_folders
from app.corpus.site_vitepress import VITEPRESS_CONFIGS
from app.corpus.sources import Source
from app.errors import DocschatError
from app.globs import matches_any

SITE_FILES = (*MINTLIFY_FILES, *MKDOCS_FILES, *DOCUSAURUS_CONFIGS, SPHINX_CONFIG, JUPYTER_BOOK_TOC, *VITEPRESS_CONFIGS,
              *NEXT_CONFIGS, MDBOOK_CONFIG)
# A site's configuration is looked for this many folders below the source's at most: `docs/`,
# `website/`, `apps/docs/`, `packages/x/docs/`. Deeper ones are test fixtures and templates.
MAX_DEPTH = 3
# Folders no site is built from: installed packages, vendored code, virtualenvs, build output.
# Hidden folders (`.git`, `.github`, `.docusaurus`) are skipped too.
NEVER_SITES = frozenset({"node_modules", "bower_components", "vendor", "third_party", "third-party",
                         "site-packages", "venv", "virtualenv", "__pycache__", "dist", "build", "_build", "target"})
# Top-level names of a Sphinx conf.py (one of them at least): what tells it from another tool's conf.py.
_SPHINX_NAMES = frozenset({"extensions", "html_theme", "root_doc", "master_doc", "source_suffix", "exclude_patterns",
                           "templates_path", "html_static_path"})


# The files a page can be read from, on any site (DOCS_INCLUDE's suffixes).
PAGE_FILES = tuple(glob.rsplit("*", 1)[1] for glob in DOCS_INCLUDE)


def restructured_text(files: Mapping[str, str], prefix: str = "") -> str:
    """Why a source whose `.rst` files are no Sphinx site's reads nothing, or "" if it holds no `.rst`
    file: no glob or `site` makes docschat read one there, so the advice to fix them would send a
    user round in circles (a stranger's Flask docs, design/answer-eval.md)."""
    count = sum(1 for path in files if path.startswith(prefix) and path.endswith(".rst"))
    return (f"its {count} .rst file(s) are reStructuredText, which docschat reads as the pages of a Sphinx site "
            "only (a conf.py in the source's folder or a subfolder), as Sphinx builds them") if count else ""


class SiteChoiceError(DocschatError):
    """The source holds several sites, or the `site` it names holds none: which files are pages
    cannot be told."""


@dataclass(frozen=True)
class SiteRoot:
    """The folder of the source's site, relative to the source's folder ("": the folder itself),
    and its configuration's path in the source when it was found below it."""

    folder: str = ""
    config: str | None = None

    @property
    def prefix(self) -> str:
        return self.folder + "/" if self.folder else ""

    def exclusion(self) -> Exclusion:
        return Exclusion(NOT_BUILT, f"outside the folder of the site {self.config}: never built")

    def empty(self, outside: int, files: Mapping[str, str]) -> str:
        restructured = restructured_text(files, self.prefix)  # no setting makes docschat read them: no advice
        if restructured and not outside:
            return f"the site found at {self.folder}/ ({self.config}) publishes no page docschat reads: {restructured}"
        return (f"the site found at {self.folder}/ ({self.config}) publishes no page docschat reads "
                f"({restructured or 'a Sphinx site without a Markdown parser builds no .md file'}); {outside} page "
                f"file(s) outside {self.folder}/ are not indexed: set the source's `site` to '.' to read every file as "
                "a page (DOCS_SITE, or `site` in docschat.toml), or its folder to where the pages are")

    def note(self, outside: int) -> str:
        return (f"the source's folder holds a site at {self.folder}/ ({self.config}): its pages are read as that "
                f"site builds them, and linked where it publishes them; {outside} page file(s) outside {self.folder}/ "
                "are not indexed (set the source's `site` to '.' to read every file as a page, or add a source "
                "for them)")


def _in_scope(path: str) -> bool:
    folders = path.split("/")[:-1]
    return 1 <= len(folders) <= MAX_DEPTH and not any(f in NEVER_SITES or f.startswith(".") for f in folders)


def is_site_config(name: str, text: str) -> bool:
    """Whether the file `name` (a SITE_FILES name) holding `text` configures a docs site: a
    `docs.json` of another tool has no `navigation`, a `conf.py` of another tool sets none of
    Sphinx's names. `mkdocs.yml` and `docusaurus.config.*` are their frameworks' own."""
    if name in MINTLIFY_FILES:
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            return False
        return isinstance(data, dict) and "navigation" in data
    if name == JUPYTER_BOOK_TOC:
        return is_jupyter_book_toc(text)
    if name == SPHINX_CONFIG:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return False
        return any(isinstance(target, ast.Name) and target.id in _SPHINX_NAMES
                   for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign))
                   for target in (node.targets if isinstance(node, ast.Assign) else [node.target]))
    return True


def _at(folder: str, files: Mapping[str, str]) -> str | None:
    """The configuration of a site at `folder` (a path in `files`' terms; "" the root), None if none."""
    prefix = folder + "/" if folder else ""
    return next((prefix + name for name in SITE_FILES if prefix + name in files), None)


def find_site(files: Mapping[str, str], chosen: str | None = None) -> SiteRoot:
    """The site of a source's files ({path relative to its folder: text}): at its root (as before),
    else the one site configuration found below it; `chosen` (the source's `site`) names its folder
    instead ("." the source's own). SiteChoiceError when several sites are found, or the folder
    chosen holds none."""
    if chosen is not None:
        folder = posixpath.normpath(chosen.strip().strip("/") or ".")
        if folder == ".":
            return SiteRoot()
        if folder.startswith("../") or folder == "..":
            raise SiteChoiceError(f"site {chosen!r}: a site's folder is inside the source's folder")
        config = _at(folder, files)
        if config is None:
            raise SiteChoiceError(f"site {chosen!r}: no site configuration there ({', '.join(SITE_FILES)})")
        return SiteRoot(folder, config)
    if _at("", files) is not None:
        return SiteRoot()
    found: dict[str, str] = {}
    for path in files:
        folder, _, name = path.rpartition("/")
        if folder.rpartition("/")[2] == ".vitepress":  # `docs/.vitepress/config.ts`: the site's folder is `docs`
            folder, name = folder.rpartition("/")[0], f".vitepress/{name}"
        if name in SITE_FILES and _in_scope(path.replace("/.vitepress/", "/")) and is_site_config(name, files[path]) and (
                # a Next.js project is a docs site when Nextra's `_meta` files are in its folders (site_nextra.py)
                name not in NEXT_CONFIGS or nextra_folders(Within(files, folder + "/")) not in (None, ("",))):
            found[folder] = min(found.get(folder, path), path, key=lambda p: SITE_FILES.index(p[len(folder) + 1:]))
    if not found:
        return SiteRoot()
    if len(found) > 1:
        raise SiteChoiceError(
            f"the source's folder holds {len(found)} sites ({', '.join(sorted(found.values()))}): one source reads one "
            "site; set the source's `site` to the folder of the one to read (DOCS_SITE, or `site` in docschat.toml), "
            "or to '.' to read every file as a page, and add a source for each other site")
    folder, config = next(iter(found.items()))
    return SiteRoot(folder, config)


class Within(Mapping[str, str]):
    """The files of `files` under `prefix`, keyed by their path below it: the site's folder, read as
    the site reads it (a path leading out of it is not there)."""

    def __init__(self, files: Mapping[str, str], prefix: str) -> None:
        self.files, self.prefix = files, prefix

    def __getitem__(self, path: str) -> str:
        return self.files[self.prefix + path]

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and self.prefix + path in self.files

    def __iter__(self) -> Iterator[str]:
        return (path[len(self.prefix):] for path in self.files if path.startswith(self.prefix))

    def __len__(self) -> int:
        return sum(1 for _ in self)


def outside_site(files: Mapping[str, str], root: SiteRoot, source: Source) -> Iterator[str]:
    """The page files of the source (its `include`, not its `exclude`) outside the folder of a site
    found below it: the site does not publish them."""
    if not root.folder:
        return
    for path in sorted(files):
        if not path.startswith(root.prefix) and path.endswith(PAGE_FILES) and matches_any(path, source.include) \
                and not matches_any(path, source.exclude):
            yield path


def moved_to_source(result: ComposeResult, prefix: str, marks: tuple[int, int, int, int], settings: Settings,
                    source: Source) -> None:
    """What a page's compose added to `result` since `marks` (ComposeResult.marks), read in the site's
    folder, with its paths in the source's folder (`prefix` + path: the page's identity, as the
    source names its files) and its hrefs where the site publishes it (its path in the site)."""
    pages, chunks, excluded, skipped = marks
    moved = [replace(page, path=prefix + page.path, url_path=page.url_path or page.path)
             for page in result.pages[pages:]]
    result.pages[pages:] = moved
    result.chunks[chunks:] = [chunk for page in moved for chunk in chunk_page(
        page, max_chars=settings.max_chunk_chars, url_prefix=source.url_prefix, base_url=source.base_url)]
    result.excluded[excluded:] = [(prefix + path, why) for path, why in result.excluded[excluded:]]
    result.skipped_pages[skipped:] = [prefix + path for path in result.skipped_pages[skipped:]]
