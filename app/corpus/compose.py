"""compose_corpus: the docs at a git revision → pages and chunks, with warnings instead of crashes."""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import posixpath
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, replace
from functools import partial
from pathlib import Path

from app.config import Settings
from app.corpus import chunker, reader
from app.corpus.chunker import Page, chunk_page, drop_duplicate_ids, page_route, path_unusable
from app.corpus.code import code_file_selected
from app.corpus.code_source import code_page, compose_code_files_of, links_at_commit, shown_href
from app.corpus.compose_result import ComposeResult, PageKey, page_title
from app.corpus.frontmatter import FrontMatter, FrontMatterError, parse_front_matter, undeclared_audience
from app.corpus.git_source import GitSourceError, GitTree, normalize_docs_dir, read_docs_tree
from app.corpus.markdown import read_page
from app.corpus.mdbook_markdown import expand_links
from app.corpus.mkdocs_macros import render_macros
from app.corpus.myst_include import PageIncludes
from app.corpus.myst_xref import SiteTitles, with_every_markdown_page
from app.corpus.page_links import page_link
from app.corpus.reading_version import reading_version
from app.corpus.repository_files import REPOSITORY, Beneath, Recorder, RepositoryFiles, in_repository, raw_file
from app.corpus.rst_metadata import rst_metadata, rst_stray_audience
from app.corpus.site import NOT_BUILT, Site, SiteDialect, read_site, site_commit, site_dialect, stem
from app.corpus.site_model import MKDOCS_SUFFIXES
from app.corpus.site_openapi import compose_operation, front_matter_blocks, generated_pages
from app.corpus.site_root import SiteChoiceError, Within, find_site, moved_to_source, outside_site, restructured_text
from app.corpus.site_starlight import starlight_lead
from app.corpus.site_vitepress import base_warning, import_snippets, paste_includes
from app.corpus.snippets import Pastable, SnippetResult, is_snippet_path, resolve_snippets
from app.corpus.sources import Source, source_from_settings
from app.corpus.sphinx_inventory import with_inventories
from app.corpus.vitepress_markdown import home_hero
from app.errors import DocschatError
from app.globs import matches_any

PAGE_SUFFIXES = (".md", ".mdx")  # and, on an MkDocs site, the files it builds pages from (MKDOCS_SUFFIXES)


@dataclass(frozen=True)
class DocsSource:
    """The environment's single source, read from another place (the CLI's --repo/--branch/--docs-dir)."""

    repo: Path
    branch: str
    docs_dir: str

    def to_source(self, settings: Settings) -> Source:
        return replace(source_from_settings(settings), repo=self.repo, branch=self.branch, dir=self.docs_dir)

    @classmethod
    def from_settings(
        cls, settings: Settings, repo: Path | None = None, branch: str | None = None, docs_dir: str | None = None
    ) -> DocsSource:
        return cls(repo=repo if repo is not None else settings.docs_repo, branch=branch if branch is not None
                   else settings.branch, docs_dir=docs_dir if docs_dir is not None else settings.docs_dir)


class NoPagesError(DocschatError):
    """A source whose include and exclude globs leave no page: read as "every page is gone", it
    would delete the source's rows."""


try:
    _DOCSCHAT_VERSION = importlib.metadata.version("docschat")
except importlib.metadata.PackageNotFoundError:  # pragma: no cover - run from a bare checkout
    _DOCSCHAT_VERSION = "unknown"


def compose_fingerprint(source: Source, settings: Settings) -> bytes:
    """Everything besides the files that decides how a page of `source` composes: the source's
    settings (not its repo, branch or weight: the blob ids stand for the files, and the weight is
    applied at search), the chunk size, CHUNKER_VERSION, docschat's version and the reading code
    with its parsers' versions (reading_version: an upgrade may read differently, so it composes
    every page once). A code source adds its chunk size, and when its link names the commit, that
    its hrefs keep `{commit}` to be filled when read: never the commit itself, so an unchanged file
    is skipped at a new commit (design/commit-in-hrefs.md; keys written when the commit was in the
    href, before, differ and recompose once)."""
    facts = {k: str(v) for k, v in asdict(source).items() if k not in ("repo", "branch", "weight")
             and (k != "site" or v is not None)}  # a site left to be found: keys as they were
    facts |= {"max_chunk_chars": str(settings.max_chunk_chars), "chunker": chunker.CHUNKER_VERSION,
              "docschat": _DOCSCHAT_VERSION, "reading": reading_version()}
    if source.kind == "code":
        facts["max_code_chunk_chars"] = str(settings.max_code_chunk_chars)
        if links_at_commit(source):
            facts["commit"] = "filled when read"
    return hashlib.sha256(json.dumps(facts, sort_keys=True).encode()).digest()


def page_key(fingerprint: bytes, deps: Iterable[str], blob_id: Callable[[str], str | None]) -> bytes:
    """The key of a page that read `deps`, their blob ids taken from the tree now ("-": absent)."""
    digest = hashlib.sha256(fingerprint)
    for path in deps:
        digest.update(f"\0{path}\t{blob_id(path) or '-'}".encode("utf-8", "backslashreplace"))
    return digest.digest()


def _unchanged_key(known: Mapping[str, PageKey] | None, path: str, fingerprint: bytes,
                   blob_id: Callable[[str], str | None] | None) -> PageKey | None:
    """The stored key of the page at `path` when still its key: the page need not be composed."""
    stored = known.get(path) if known is not None else None
    if blob_id is not None and stored is not None and stored.key == page_key(fingerprint, stored.deps, blob_id):
        return stored
    return None


def _page_audiences(path: str, files: Mapping[str, str], source: Source,
                    site: Site | None = None) -> tuple[tuple[str, ...], bool] | None:
    """(audiences, declared) of any file of the tree; None for a snippet file (or a partial of the
    site) that declares nothing.
    A declaration in front matter that is not read (`undeclared_audience`) makes it internal, as it
    makes a page: pasted, its text would otherwise reach the public page that imports it."""
    text = files[path]
    try:
        front = site.front(path, parse_front_matter(text)) if site is not None else parse_front_matter(text)
        declared = ("internal",) if undeclared_audience(text, front) is not None else front.audiences(
            groups=site is not None and site.framework == "mintlify")
    except (FrontMatterError, ValueError):
        declared = ("internal",)  # unreadable: fail closed
    if declared is not None:
        return declared, True
    return None if is_snippet_path(path) or (site is not None and site.is_partial(path)) else (source.audiences, False)


def _included(page: str, files: Pastable, site_folder: str, path: str) -> str | None:
    """The text of the file at `path` (relative to the site's folder, `site_folder` in the
    repository) a MyST `{include}` on `page` names: a file of the site, or else of the repository,
    as Sphinx reads its checkout. None when there is none, it leads out of the repository, or the
    page may not show it (Pastable: a file for fewer audiences than the page's)."""
    if path != ".." and not path.startswith("../"):
        key: str | None = path
    elif (in_repo := in_repository(site_folder, path)) is not None:
        key = REPOSITORY + in_repo
    else:
        key = None
        files.warnings.append(f"{page}: {path} (an {{include}} or {{literalinclude}}) leads out of the repository; not read")
    try:
        return files[key] if key is not None else None
    except KeyError:
        return None


def _with_repository(blob_id: Callable[[str], str | None],
                     repository: Mapping[str, str]) -> Callable[[str], str | None]:
    """`blob_id`, and a repository file's (a REPOSITORY dependency): from `repository`, or for the
    source's own files (Beneath) from `blob_id`."""
    def blob(path: str) -> str | None:
        if not path.startswith(REPOSITORY):
            return blob_id(path)
        if isinstance(repository, RepositoryFiles):
            return repository.blob_id(path[len(REPOSITORY):])
        within = path[len(REPOSITORY):]
        prefix = repository.prefix if isinstance(repository, Beneath) else "\0"
        return blob_id(within[len(prefix):]) if within.startswith(prefix) else None
    return blob


def _title_shown(page: str, audiences: tuple[str, ...], files: Mapping[str, str], source: Source, site: Site,
                 warnings: list[str], path: str) -> bool:
    """Whether a section or document title of the page at `path` may show on `page` (a MyST role
    naming it: app/corpus/myst_xref.py): not when the site never builds it (Sphinx defines none of
    its labels), nor when its audience does not cover the page's (as a snippet is not pasted)."""
    try:
        front = site.front(path, parse_front_matter(files[path]))
    except FrontMatterError:
        return False
    if (why := site.exclusion(path, front.data)) is not None and why.kind == NOT_BUILT:
        return False
    allowed = _page_audiences(path, files, source, site)
    if allowed is not None and not set(audiences) <= set(allowed[0]):
        warnings.append(f"{page}: a role names a title of {path}, whose audience ({', '.join(allowed[0])}) does not "
                        f"cover the page's ({', '.join(audiences)}); its label is shown")
        return False
    return True


def compose_files(files: Mapping[str, str], settings: Settings, source: Source | None = None,
                  repository: Mapping[str, str] | None = None) -> ComposeResult:
    """Compose one source from an in-memory tree {path relative to its folder: text} (`repository`:
    iter_compose_files').

    A file that cannot be read or parsed becomes a warning naming it; the others go on.
    """
    result = ComposeResult()
    for part in iter_compose_files(files, settings, source, repository=repository):
        result.extend(part)
    return result


def iter_compose_files(
    files: Mapping[str, str], settings: Settings, source: Source | None = None, *, batch_chunks: int | None = None,
    blob_id: Callable[[str], str | None] | None = None, known: Mapping[str, PageKey] | None = None,
    repository: Mapping[str, str] | None = None,
) -> Iterator[ComposeResult]:
    """compose_files in parts of whole pages, each at least `batch_chunks` chunks (None: one part)
    but the last: a sync holds one part at a time. The parts joined are compose_files' result.

    With `blob_id` (a path's blob id in the tree, None when absent) each composed page gets its
    key (`page_keys`); a page whose key in `known` is still its key is not read or composed but
    listed in `kept`. Route collisions are decided as before, a kept page holding its route.
    `repository`: the files of the source's repository by path from its root, what a MyST
    `{include}` may read beyond the site (a RepositoryFiles; by default the source's files only)."""
    source = source or source_from_settings(settings)
    repository = Beneath(files, normalize_docs_dir(source.dir)) if repository is None else repository
    # The site's configuration (navigation, redirects) decides every page: what it decided is part
    # of every page's key, rather than the files it read (a Sphinx site's toctrees are in its
    # pages: an edit that leaves the navigation as it was recomposes the edited page only). How the
    # site's pages are read is part of it too: a docs.json added, or a first MyST page, recomposes
    # every page once.
    # A site in a subfolder of the source (a repository read from its root) is read from its folder:
    # `files` (paths in the source) below, `tree` (paths in the site) for everything the site decides.
    root = find_site(files, source.site)
    tree = Within(files, root.prefix) if root.folder else files
    site = with_inventories(read_site(tree), partial(raw_file, repository, posixpath.join(normalize_docs_dir(source.dir), root.prefix)))
    site.css(tree)  # its stylesheets listed once, from the tree: not a page's dependencies
    dialect = site_dialect(site, tree)
    titles = SiteTitles(tree) if dialect.myst is not False else None  # what `{ref}`s show: read when asked
    # Each page's position in the navigation: decided by the site alone, which is in every page's
    # key, so a page kept by its key keeps a stored position that is still right.
    page_orders = site.page_orders()
    fingerprint = (hashlib.sha256(compose_fingerprint(source, settings) + repr(dialect).encode()
                                  + repr(site).encode() + site.css_key(files)
                                  + (repr(root).encode() if root.folder else b"")).digest() if blob_id is not None else b"")
    if blob_id is not None:  # and a key's dependency on every Markdown page (app/corpus/myst_xref.py)
        blob_id = _with_repository(with_every_markdown_page(blob_id, files, root.prefix), repository)
    site_folder = posixpath.join(normalize_docs_dir(source.dir), root.prefix).rstrip("/")  # in the repository
    result = ComposeResult()
    result.warnings.extend([*site.warnings, *filter(None, [base_warning(site, source.url_prefix)])])
    outside = set(outside_site(files, root, source))  # page files the site found does not hold
    if root.folder:
        result.warnings.append(root.note(len(outside)))
    routes: dict[str, str] = {}  # route → the page published there
    mkdocs = site.framework == "mkdocs"
    suffixes = PAGE_SUFFIXES + MKDOCS_SUFFIXES if mkdocs else PAGE_SUFFIXES + site.rst_suffixes  # Sphinx's `.rst`
    operations = {op.path: op for op in generated_pages(site, tree, result.warnings)}  # Mintlify's, from OpenAPI
    rejected = 0  # pages the site publishes that could not be read
    for path in [*sorted(files), *(root.prefix + op for op in operations)]:
        if path in outside:  # the site does not publish it: never indexed
            result.excluded.append((path, root.exclusion()))
            continue
        if not path.startswith(root.prefix):
            continue
        path, in_source = path[len(root.prefix):], path  # in the site's folder; in the source's
        operation = operations.get(path)
        # A file of a `snippets` folder is a Mintlify snippet, never a page; MkDocs builds it.
        if not operation and (not path.endswith(suffixes) or (is_snippet_path(path) and not mkdocs) or site.is_partial(path)):
            continue
        if not matches_any(in_source, source.include) or matches_any(in_source, source.exclude):
            continue
        if (unusable := path_unusable(in_source)) is not None:
            result.warnings.append(unusable)
            continue
        if (left_out := site.left_out.get(path)) is not None:  # whatever its front matter: not at its route
            result.excluded.append((in_source, left_out))  # (Docusaurus: a default locale's copy is there)
            continue
        # `sub.md` and `sub/index.md` (or `sub.mdx`) are both served at /sub: the site shows one of
        # them. Indexed both, a result would link to a page the reader cannot reach, and the page
        # view would merge the two. The first by path that can be read (`sub.md` sorts before
        # `sub/index.md`) stays.
        route = page_route(site.url_path(path), source.url_prefix)
        if (taken := routes.get(route)) is not None:
            result.warnings.append(f"{in_source}: published at {route}, as {taken} is; page skipped (rename one of them)")
            continue
        if (stored := _unchanged_key(known, in_source, fingerprint, blob_id)) is not None:
            result.kept.append(stored)
            routes[route] = in_source
            continue
        composed, warned, marks = len(result.pages), len(result.warnings), result.marks()
        recorder = Recorder(tree, repository)
        try:
            (compose_operation(operation, recorder, settings, source, site, page_orders, result) if operation
             else _compose_page(path, recorder, settings, source, result, site, dialect, page_orders, titles,
                                site_folder))
        except GitSourceError:
            raise  # the tree cannot be read (GitTree reads a file when asked): the source fails
        except Exception as exc:  # noqa: BLE001 - one hostile file must not stop the sync
            result.warnings.append(f"{in_source}: cannot be composed ({type(exc).__name__}: {exc}); page skipped")
            result.skipped_pages.append(path)
        if root.folder:  # paths in the source's terms, hrefs where the site publishes the page
            moved_to_source(result, root.prefix, marks, settings, source)
        rejected += len(result.skipped_pages) - marks[3]
        if len(result.pages) > composed:
            routes[route] = in_source
            if blob_id is not None and not recorder.whole:
                deps = tuple(sorted(dep if dep.startswith("/") else root.prefix + dep for dep in recorder.read))
                result.page_keys.append(PageKey(in_source, page_key(fingerprint, deps, blob_id), deps,
                                                result.pages[-1].declared, tuple(result.warnings[warned:])))
        if batch_chunks is not None and len(result.chunks) >= batch_chunks:
            yield result
            result = ComposeResult()
    if root.folder and not routes and not rejected:  # the site found publishes nothing docschat reads
        raise SiteChoiceError(root.empty(len(outside), files))
    yield result


def _compose_page(
    path: str, files: Mapping[str, str], settings: Settings, source: Source, result: ComposeResult,
    site: Site, dialect: SiteDialect, page_orders: Mapping[str, int], titles: SiteTitles | None = None,
    site_folder: str = "",
) -> None:
    text, rst = files[path], path.endswith(site.rst_suffixes)  # reStructuredText has no YAML front matter
    try:
        front = site.front(path, FrontMatter(rst_metadata(text), text) if rst else parse_front_matter(text, dots=site.framework == "mkdocs"))
    except FrontMatterError as exc:
        result.warnings.append(f"{path}:{exc.line}: {exc}; page skipped")
        result.skipped_pages.append(path)
        return
    if (reason := site.exclusion(path, front.data)) is not None:
        result.excluded.append((path, reason))
        return
    try:
        declared = front.audiences(groups=dialect.mintlify)  # Mintlify's authentication groups too
    except ValueError as exc:
        result.warnings.append(f"{path}: front matter: {exc}; the page is internal")
        declared = ("internal",)
    if (stray := rst_stray_audience(text) if rst else undeclared_audience(text, front)) is not None:
        result.warnings.append(f"{path}: {stray}")
        declared = ("internal",)
    audiences = declared or source.audiences
    mdx = path.endswith(".mdx") or dialect.mintlify or dialect.md_as_mdx  # Mintlify, Docusaurus: `.md` is MDX
    # Snippets are MDX's imports: a CommonMark or MyST page shows an import line as text.
    pasted = resolve_snippets(
        path, front.body, files, page_audiences=audiences,
        audience_of=lambda snippet: _page_audiences(snippet, files, source, site),
        math=dialect.mintlify or dialect.math, directives=not dialect.mintlify, comments=dialect.mdx_comments,
    ) if mdx else SnippetResult(paste_includes(path, front.body, files, result.warnings, site.docs_prefix)  # VitePress's `<!--@include:`
                                if site.framework == "vitepress"
                                # mdBook reads no front matter: its `---` is a rule, its lines a heading, shown.
                                else text.lstrip("\ufeff") if site.framework == "mdbook" else front.body)
    result.warnings.extend(pasted.warnings)  # a page its parser rejects still names its snippets' faults
    pasted.text = render_macros(pasted.text, site, path, front.data)  # mkdocs-macros, if on (or MacrosError)
    if site.framework == "vitepress":  # a home page's hero and features, from its front matter
        pasted.text = home_hero(front.data, files) + pasted.text
    pastable = Pastable(files, path, audiences, lambda snippet: _page_audiences(  # the site's rules, in its folder
        snippet, files, source, None if snippet.startswith(REPOSITORY) else site), result.warnings)
    includes = PageIncludes(path, partial(_included, path, pastable, site_folder), result.warnings)
    if site.framework == "vitepress":  # `<<< file` code snippets, as VitePress's markdown-it rule reads them
        pasted.text = import_snippets(path, pasted.text, partial(_included, path, pastable, site_folder), result.warnings,
                                      site.docs_prefix)
    if site.framework == "mdbook":  # `{{#include}}` and the like, as mdBook's links preprocessor pastes them
        pasted.text = expand_links(path, pasted.text, partial(_included, path, pastable, site_folder), result.warnings)
    reading = read_page(pasted.text, mdx=mdx, rst=rst, myst=dialect.myst, mintlify=dialect.mintlify, comments=dialect.mdx_comments,
                        mkdocs=dialect.python_markdown, front_matter=front.body != text.lstrip("\ufeff"),
                        docusaurus=dialect.docusaurus, vitepress=dialect.vitepress, starlight=dialect.starlight, math=dialect.math, mermaid=dialect.mermaid, admonitions=site.admonitions_of(path), build=replace(site.myst.for_page(front.data), include=includes.paste, literal_include=includes.literal, xref=partial(
                            titles.title, page=path, files=files, shown=partial(
                                _title_shown, path, audiences, files, source, site, result.warnings)) if titles else None,
                        xref_link=partial(titles.link, page=path, files=files) if titles and rst else None), files=pastable, css=site.css(files, path, pasted.text if mdx else ""),
                        linked=lambda urls: site.linked_css(files, urls),  # stylesheets the page links
                        modules=lambda sources: site.modules(files, path, sources),  # components it imports
                        link=page_link(path, files, site, source, titles if dialect.myst else None),
                        page_data=front.data if dialect.vitepress or dialect.starlight else None, mdbook=dialect.mdbook)
    result.warnings.extend(f"{path}: {name} shows what Sphinx reads by importing the project, which docschat never "
                           "does: shown as nothing" for name in sorted(set(reading.not_read)))
    result.warnings.extend(f"{path}: snippet {snippet!r} pastes nothing: no file of the source it may paste (a URL "
                           "is never downloaded)" for snippet in reading.unresolved_snippets)
    if reading.error is not None:
        # As the site's build refuses it: the page is not published, so it is not indexed.
        result.warnings.append(f"{path}: the page's parser rejects it ({reading.error[:500]}); page skipped")
        result.skipped_pages.append(path)
        return
    blocks, summary = reading.blocks, None
    if site.framework == "starlight" and (lead := starlight_lead(front.data)):  # its banner and hero, above the text
        blocks = [*reader.read_html(lead).blocks, *blocks]
    if dialect.mintlify and isinstance(front.data.get("openapi"), str):  # an API page: the operation's text too
        summary = front_matter_blocks(path, front, files, site, blocks, result.warnings)
    result.unknown_components.extend((path, name, uses) for name, uses in sorted(reading.unknown_components.items()))
    result.hiding_components.extend((path, name, uses) for name, uses in sorted(reading.hiding_components.items()))
    page = Page(
        path=path,
        # VitePress shows a page's `# heading` (its sidebar and search too); front matter `title` is
        # the browser tab's (`watch | Config`, before the site's title), the page's title without one.
        title=page_title(path, front.title or summary, blocks, heading_first=dialect.vitepress or rst),
        description=site.shown_description(front.description),
        audiences=audiences,
        body="\n\n".join(block.text for block in blocks),
        source=source.name,
        declared=declared is not None,
        blocks=tuple(blocks),
        place=site.place(path),
        page_order=page_orders.get(stem(path)),
        url_path=url_path if (url_path := site.url_path(path)) != path else None,
        anchor_style={"vitepress": "vitepress", "starlight": "astro"}.get(site.framework, "github"),
    )
    chunks = chunk_page(page, max_chars=settings.max_chunk_chars, url_prefix=source.url_prefix,
                        base_url=source.base_url)
    result.snippets_resolved += pasted.resolved
    result.snippets_unresolved += pasted.unresolved + len(reading.unresolved_snippets)
    result.pages.append(page)
    result.chunks.extend(chunks)


def _no_pages(source: Source, files: Mapping[str, str]) -> NoPagesError:
    # As read_docs_tree refuses an empty folder: globs that match nothing (a typo, `include =
    # []`, "../**") are a configuration error, not a source whose pages were all deleted.
    return NoPagesError(
        f"no file under {source.dir or 'the repository root'!r} at {source.branch!r} is a page of source "
        f"{source.name!r} (include {list(source.include)}, exclude {list(source.exclude)}): reading nothing "
        f"would delete every page; {f'{rst}; remove' if (rst := restructured_text(files)) else 'fix the globs, or remove'}"
        " the source with `docschat index clear --source`"
    )


def compose_corpus(source: Source | DocsSource, settings: Settings) -> ComposeResult:
    """Read one source's files at its branch through git and compose them. The hrefs are those
    a reader sees (a code link's `{commit}` filled with the commit read; a sync stores it unfilled)."""
    if isinstance(source, DocsSource):
        source = source.to_source(settings)
    if source.kind != "code":  # its pages are read: V8 starts while git reads the tree
        reader.prepare()
    commit = site_commit(source.repo, source.branch, source.dir, docs=source.kind != "code")
    files = read_docs_tree(source.repo, commit, source.dir)
    if source.kind == "code":
        result = ComposeResult()
        for part in iter_compose_code(files, settings, source, commit):
            result.extend(part)
        result.chunks = [replace(c, href=shown_href(c.href, commit, source)) for c in result.chunks]
    else:
        result = compose_files(files, settings, source, RepositoryFiles(source.repo, commit))
    result.commit = commit
    if not result.pages and not result.skipped_pages:
        raise _no_pages(source, files)
    result.chunks, duplicates = drop_duplicate_ids(result.chunks)
    result.warnings.extend(duplicates)
    return result


def compose_batches(
    source: Source, settings: Settings, *, batch_chunks: int, known: Mapping[str, PageKey] | None = None,
) -> Iterator[ComposeResult]:
    """compose_corpus in parts of whole pages of about `batch_chunks` chunks, the files read from
    git one at a time (GitTree): what a sync of a large source holds is one part, not the source.
    Each part carries the commit read. NoPagesError, as compose_corpus raises it, comes after the
    last part: a caller discards what it did with the parts. Pages get keys, and those whose key
    in `known` is unchanged are skipped (iter_compose_files; iter_compose_code for a code source:
    one page a file)."""
    if source.kind != "code" and not known:  # every page is read (none kept by its key)
        reader.prepare()
    commit = site_commit(source.repo, source.branch, source.dir, docs=source.kind != "code")
    any_page = False
    with GitTree(source.repo, commit, source.dir) as tree:
        parts = (iter_compose_code(tree, settings, source, commit, batch_chunks=batch_chunks, blob_id=tree.blob_id,
                                   known=known)
                 if source.kind == "code" else
                 iter_compose_files(tree, settings, source, batch_chunks=batch_chunks, blob_id=tree.blob_id,
                                    known=known, repository=RepositoryFiles(source.repo, commit)))
        for part in parts:
            part.commit = commit
            any_page = any_page or bool(part.pages) or bool(part.skipped_pages) or bool(part.kept)
            yield part
    if not any_page:
        raise _no_pages(source, tree)


def iter_compose_code(
    files: Mapping[str, str], settings: Settings, source: Source, commit: str, *, batch_chunks: int | None = None,
    blob_id: Callable[[str], str | None] | None = None, known: Mapping[str, PageKey] | None = None,
) -> Iterator[ComposeResult]:
    """A code source's files (paths relative to its folder) composed one at a time, in parts of
    whole files of at least `batch_chunks` chunks (None: one part). Each indexed file is a page.
    With `blob_id`, a page's key is the fingerprint and the file's own blob id, the only file it
    reads (not the commit: a link naming it keeps `{commit}` in the hrefs, filled when read); a
    page whose key in `known` is unchanged is not read or chunked but `kept`."""
    fingerprint = compose_fingerprint(source, settings) if blob_id is not None else b""
    folder = normalize_docs_dir(source.dir)
    prefix = folder + "/" if folder else ""
    result = ComposeResult()
    for relative in sorted(files):
        if not code_file_selected(relative, source.include, source.exclude):
            continue
        if (stored := _unchanged_key(known, prefix + relative, fingerprint, blob_id)) is not None:
            result.kept.append(stored)
            continue
        code = compose_code_files_of(source, {relative: files[relative]}, commit,
                                     max_chars=settings.max_code_chunk_chars)
        result.warnings.extend(code.warnings)
        for path in code.files:  # the file, when it gave chunks
            page = code_page(source, path)
            result.pages.append(page)
            if blob_id is not None:
                result.page_keys.append(PageKey(path, page_key(fingerprint, (relative,), blob_id), (relative,),
                                                page.declared, tuple(code.warnings)))
        result.chunks.extend(code.chunks)
        if batch_chunks is not None and len(result.chunks) >= batch_chunks:
            yield result
            result = ComposeResult()
    yield result
