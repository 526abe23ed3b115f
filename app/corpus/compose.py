"""compose_corpus: the docs at a git revision → pages and chunks, with warnings instead of crashes."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

from app.config import Settings
from app.corpus.chunker import Chunk, Page, chunk_page
from app.corpus.frontmatter import FrontMatterError, parse_front_matter
from app.corpus.git_source import read_docs_tree
from app.corpus.mdx import clean_mdx
from app.corpus.snippets import is_snippet_path, resolve_snippets

PAGE_SUFFIXES = (".md", ".mdx")
_H1 = re.compile(r"^#[ \t]+(.+?)[ \t]*$", re.MULTILINE)


@dataclass(frozen=True)
class DocsSource:
    repo: Path
    branch: str
    docs_dir: str

    @classmethod
    def from_settings(
        cls, settings: Settings, repo: Path | None = None, branch: str | None = None, docs_dir: str | None = None
    ) -> DocsSource:
        return cls(
            repo=repo if repo is not None else settings.docs_repo,
            branch=branch if branch is not None else settings.branch,
            docs_dir=docs_dir if docs_dir is not None else settings.docs_dir,
        )


@dataclass
class ComposeResult:
    pages: list[Page] = field(default_factory=list)
    chunks: list[Chunk] = field(default_factory=list)
    snippets_resolved: int = 0
    warnings: list[str] = field(default_factory=list)

    def summary(self) -> dict[str, object]:
        return {
            "pages": len(self.pages),
            "chunks": len(self.chunks),
            "snippets_resolved": self.snippets_resolved,
            "warnings": list(self.warnings),
        }


@functools.lru_cache(maxsize=256)
def _glob_regex(pattern: str) -> re.Pattern[str]:
    """A path glob: `**/` spans any folders (or none), `*` stays within one folder."""
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def matches_any(path: str, patterns: list[str]) -> bool:
    return any(_glob_regex(p).match(path) for p in patterns)


def _title_for(path: str, title: str | None, body: str) -> str:
    if title:
        return title
    h1 = _H1.search(body)
    if h1:
        return h1.group(1).strip()
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    if stem == "index":
        stem = path.rsplit("/", 2)[-2] if "/" in path else "Home"
    return stem.replace("-", " ").replace("_", " ").strip().capitalize() or path


def compose_files(files: dict[str, str], settings: Settings) -> ComposeResult:
    """Compose from an in-memory tree {path relative to the docs folder: text}."""
    result = ComposeResult()
    for path in sorted(files):
        if not path.endswith(PAGE_SUFFIXES) or is_snippet_path(path):
            continue
        if not matches_any(path, settings.docs_include) or matches_any(path, settings.docs_exclude):
            continue
        try:
            front = parse_front_matter(files[path])
        except FrontMatterError as exc:
            result.warnings.append(f"{path}:{exc.line}: {exc}; page skipped")
            continue
        pasted = resolve_snippets(path, front.body, files)
        result.snippets_resolved += pasted.resolved
        result.warnings.extend(pasted.warnings)
        body = clean_mdx(pasted.text)
        page = Page(
            path=path,
            title=_title_for(path, front.title, body),
            description=front.description,
            public=front.public,
            body=body,
        )
        result.pages.append(page)
        result.chunks.extend(
            chunk_page(page, max_chars=settings.max_chunk_chars, url_prefix=settings.docs_url_prefix)
        )
    return result


def compose_corpus(source: DocsSource, settings: Settings) -> ComposeResult:
    """Read the docs at `source.branch` through git and compose them."""
    files = read_docs_tree(source.repo, source.branch, source.docs_dir)
    return compose_files(files, settings)
