"""A code source (kind = "code"): its files at one commit, chunked by symbol, linked at that commit."""

from __future__ import annotations

from app.corpus.chunker import Page
from app.corpus.code import CodeComposeResult, compose_code_files, link_href
from app.corpus.code_tree import CodeTree
from app.corpus.git_source import normalize_docs_dir, read_docs_tree
from app.corpus.sources import DEFAULT_CODE_LINK, Source


def compose_code_files_of(source: Source, files: dict[str, str], commit: str, *, max_chars: int) -> CodeComposeResult:
    """Chunk `files` (paths relative to the source's dir) as `source` at `commit`."""
    link = source.link or DEFAULT_CODE_LINK
    return compose_code_files(
        files,
        href_for=lambda path, start, end: link_href(link, commit, path, start, end),
        include=list(source.include), exclude=list(source.exclude),
        path_prefix=normalize_docs_dir(source.dir), max_chars=max_chars,
        source=source.name, audiences=source.audiences,
    )


def read_code_source(source: Source, commit: str, *, max_chars: int) -> tuple[list[Page], CodeComposeResult]:
    """The source's files at `commit` through git: its pages (one per indexed file) and chunks."""
    result = compose_code_files_of(source, read_docs_tree(source.repo, commit, source.dir), commit, max_chars=max_chars)
    pages = [
        Page(path=path, title=path, description=None, audiences=source.audiences, body="", source=source.name)
        for path in result.files
    ]
    return pages, result


def code_tree(source: Source, commit: str) -> CodeTree:
    """What the model's tools may read of `source`: the files it indexes, at the synced commit."""
    return CodeTree(source.repo, commit, source.dir, tuple(source.include), tuple(source.exclude))
