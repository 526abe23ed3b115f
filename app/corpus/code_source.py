"""A code source (kind = "code"): its files at one commit, chunked by symbol, linked at that commit."""

from __future__ import annotations

from collections.abc import Mapping

from app.corpus.chunker import Page
from app.corpus.code import CodeComposeResult, code_file_selected, compose_code_files, link_href
from app.corpus.code_tree import CodeTree
from app.corpus.git_source import normalize_docs_dir
from app.corpus.sources import DEFAULT_CODE_LINK, Source


def code_link(source: Source) -> str:
    """The href template of `source`'s chunks."""
    return source.link or DEFAULT_CODE_LINK


COMMIT_FIELD = "{commit}"


def links_at_commit(source: Source) -> bool:
    """Whether `source`'s hrefs name the commit (the default link does not). Its rows then hold
    `{commit}` as it is in the link: readers fill it with the commit the rows were synced at
    (docs_source_commit, sql/functions/docs_section_href.sql), so that an unchanged file composes
    to the same rows at any commit (design/commit-in-hrefs.md)."""
    return source.kind == "code" and COMMIT_FIELD in code_link(source)


def shown_href(href: str, commit: str | None, source: Source) -> str:
    """A stored href as a reader sees it: `{commit}` filled when `source` links at the commit
    (what public.docs_section_href does in the database)."""
    return href.replace(COMMIT_FIELD, commit) if commit is not None and links_at_commit(source) else href


def code_page(source: Source, path: str) -> Page:
    """The page of one indexed file (`path` inside the repository)."""
    return Page(path=path, title=path, description=None, audiences=source.audiences, body="", source=source.name)


def compose_code_files_of(
    source: Source, files: Mapping[str, str], commit: str, *, max_chars: int,
) -> CodeComposeResult:
    """Chunk `files` (paths relative to the source's dir) as `source` at `commit`. A link naming
    the commit keeps `{commit}` in the hrefs (filled when read): the rows do not depend on the
    commit. A file whose path holds `{commit}` cannot then be linked to (reading would fill its
    path too): it is skipped with a warning."""
    link = code_link(source)
    prefix = normalize_docs_dir(source.dir)
    at_commit = links_at_commit(source)
    skipped: list[str] = []
    if at_commit:
        skipped = sorted(path for path in files if COMMIT_FIELD in path)
        files = {path: text for path, text in files.items() if COMMIT_FIELD not in path}
    result = compose_code_files(
        files,
        href_for=lambda path, start, end: link_href(link, COMMIT_FIELD if at_commit else commit, path, start, end),
        include=list(source.include), exclude=list(source.exclude),
        path_prefix=prefix, max_chars=max_chars,
        source=source.name, audiences=source.audiences,
    )
    result.warnings[:0] = [f"{prefix + '/' if prefix else ''}{path}: a path holding {COMMIT_FIELD} cannot be "
                           f"linked to with a link that names the commit; file skipped" for path in skipped
                           if code_file_selected(path, source.include, source.exclude)]
    return result


def code_tree(source: Source, commit: str) -> CodeTree:
    """What the model's tools may read of `source`: the files it indexes, at the synced commit."""
    return CodeTree(source.repo, commit, source.dir, tuple(source.include), tuple(source.exclude))
