"""A code source: a repository's source files at a branch, chunked by symbol, linked at its commit."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.corpus.code import DEFAULT_CODE_EXCLUDE, DEFAULT_CODE_INCLUDE, CodeComposeResult, compose_code_files, link_href
from app.corpus.code_tree import CodeTree
from app.corpus.git_source import GitSourceError, _git, normalize_docs_dir, read_docs_tree

# A code chunk's href without a link template: the path and lines (relative, so eval and the chat
# put the docs base URL in front). Set `link` to point at the forge instead.
DEFAULT_CODE_LINK = "/code/{path}#L{start}-L{end}"


@dataclass(frozen=True)
class CodeSource:
    name: str
    repo: Path
    branch: str = "main"
    dir: str = "."
    include: tuple[str, ...] = tuple(DEFAULT_CODE_INCLUDE)
    exclude: tuple[str, ...] = tuple(DEFAULT_CODE_EXCLUDE)
    link: str = DEFAULT_CODE_LINK

    def tree(self, commit: str) -> CodeTree:
        """What the model's tools may read: the same files, at the synced commit."""
        return CodeTree(self.repo, commit, self.dir, self.include, self.exclude)


def resolve_commit(repo: Path, branch: str) -> str:
    """The full commit id `branch` points at now: what is indexed, linked and read."""
    try:
        return _git(repo, "rev-parse", "--verify", "--quiet", f"{branch}^{{commit}}").decode().strip()
    except GitSourceError:
        raise GitSourceError(f"branch or revision {branch!r} not found in the repository {repo}") from None


def compose_code_source(source: CodeSource, *, max_chars: int, commit: str | None = None) -> tuple[CodeComposeResult, str]:
    """The source's chunks at `commit` (default: where its branch points now), and that commit."""
    commit = commit or resolve_commit(source.repo, source.branch)
    files = read_docs_tree(source.repo, commit, source.dir)
    result = compose_code_files(
        files,
        href_for=lambda path, start, end: link_href(source.link, commit, path, start, end),
        include=list(source.include), exclude=list(source.exclude),
        path_prefix=normalize_docs_dir(source.dir), max_chars=max_chars,
    )
    return result, commit
