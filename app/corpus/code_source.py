"""A code source (kind = "code"): its files at one commit, chunked by symbol, linked at that commit."""

from __future__ import annotations

from collections.abc import Mapping

from app.corpus.chunker import Page
from app.corpus.code import CodeComposeResult, compose_code_files, link_href
from app.corpus.code_tree import CodeTree
from app.corpus.git_source import normalize_docs_dir
from app.corpus.sources import DEFAULT_CODE_LINK, Source


def code_link(source: Source) -> str:
    """The href template of `source`'s chunks."""
    return source.link or DEFAULT_CODE_LINK


def links_at_commit(source: Source) -> bool:
    """Whether `source`'s hrefs name the commit (the default link does not): then an unchanged
    file at a new commit composes to other rows, and its page key holds the commit."""
    return "{commit}" in code_link(source)


def code_page(source: Source, path: str) -> Page:
    """The page of one indexed file (`path` inside the repository)."""
    return Page(path=path, title=path, description=None, audiences=source.audiences, body="", source=source.name)


def compose_code_files_of(
    source: Source, files: Mapping[str, str], commit: str, *, max_chars: int,
) -> CodeComposeResult:
    """Chunk `files` (paths relative to the source's dir) as `source` at `commit`."""
    link = code_link(source)
    return compose_code_files(
        files,
        href_for=lambda path, start, end: link_href(link, commit, path, start, end),
        include=list(source.include), exclude=list(source.exclude),
        path_prefix=normalize_docs_dir(source.dir), max_chars=max_chars,
        source=source.name, audiences=source.audiences,
    )


def code_tree(source: Source, commit: str) -> CodeTree:
    """What the model's tools may read of `source`: the files it indexes, at the synced commit."""
    return CodeTree(source.repo, commit, source.dir, tuple(source.include), tuple(source.exclude))
