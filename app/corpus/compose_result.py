"""What composing a source gives: its pages and chunks, and what was left out or warned about."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from app.corpus.chunker import Chunk, Page, shown_heading
from app.corpus.reader import Block
from app.corpus.site import Exclusion


@dataclass(frozen=True)
class PageKey:
    """What composing a page read, as a key: `key` is the sha256 of the source's compose
    fingerprint and of each path in `deps` with its blob id then (the page itself, the snippets it
    pasted, the snippet paths it looked for and did not find). A page whose key, computed again
    from the tree's listing alone, is unchanged composes as before: a sync skips it
    (design/page-keys.md). `chunks`, `declared` and `warnings` are what its compose gave, kept
    so that a skipped page is counted and warned about as a composed one."""

    page: str
    key: bytes
    deps: tuple[str, ...]
    declared: bool
    warnings: tuple[str, ...] = ()
    chunks: int = 0


@dataclass
class ComposeResult:
    pages: list[Page] = field(default_factory=list)
    chunks: list[Chunk] = field(default_factory=list)
    snippets_resolved: int = 0
    snippets_unresolved: int = 0  # imports and tags naming no file (each is a warning too)
    warnings: list[str] = field(default_factory=list)
    commit: str | None = None  # the commit read, when read through git
    # Pages that could not be read (front matter that does not parse, …): not indexed this time,
    # and named, so that the sync can fail loudly rather than drop them with a warning only.
    skipped_pages: list[str] = field(default_factory=list)
    # With keys (a git tree): the key of each page composed, and the pages not composed because
    # their key is unchanged (their rows stay as they are; chunks, declared and warnings as stored).
    page_keys: list[PageKey] = field(default_factory=list)
    kept: list[PageKey] = field(default_factory=list)
    # Files the site does not publish as pages (outside its navigation, redirect sources, hidden by
    # their front matter: app/corpus/site.py), each with why: not indexed, and not an error.
    excluded: list[tuple[str, Exclusion]] = field(default_factory=list)
    # Components no rule of the page reader knows (what they show is a guess: their children):
    # (page, component, uses).
    unknown_components: list[tuple[str, str, int]] = field(default_factory=list)
    # The site's own components read as hiding their children (their code never renders them: the
    # text the page puts inside them is not indexed): (page, component, uses).
    hiding_components: list[tuple[str, str, int]] = field(default_factory=list)

    @property
    def undeclared_pages(self) -> int:
        """Pages that declare no audience and so have their source's default."""
        return sum(1 for page in self.pages if not page.declared)

    @classmethod
    def merged(cls, results: list[ComposeResult]) -> ComposeResult:
        """The pages, chunks and counts of several sources' results as one (warnings left out)."""
        return cls([p for r in results for p in r.pages], [c for r in results for c in r.chunks],
                   sum(r.snippets_resolved for r in results), sum(r.snippets_unresolved for r in results),
                   excluded=[e for r in results for e in r.excluded],
                   skipped_pages=[p for r in results for p in r.skipped_pages],
                   unknown_components=[u for r in results for u in r.unknown_components],
                   hiding_components=[u for r in results for u in r.hiding_components])

    def extend(self, other: ComposeResult) -> None:
        """Append another part of the same source (iter_compose_files)."""
        self.pages.extend(other.pages)
        self.chunks.extend(other.chunks)
        self.snippets_resolved += other.snippets_resolved
        self.snippets_unresolved += other.snippets_unresolved
        self.warnings.extend(other.warnings)
        self.skipped_pages.extend(other.skipped_pages)
        self.page_keys.extend(other.page_keys)
        self.kept.extend(other.kept)
        self.excluded.extend(other.excluded)
        self.unknown_components.extend(other.unknown_components)
        self.hiding_components.extend(other.hiding_components)
        self.commit = self.commit or other.commit

    def marks(self) -> tuple[int, int, int, int]:
        """How many pages, chunks, exclusions and skipped pages it holds (what a page's compose added
        comes after)."""
        return len(self.pages), len(self.chunks), len(self.excluded), len(self.skipped_pages)

    def excluded_counts(self) -> dict[str, int]:
        """Files left out, counted by kind (app/corpus/site.py KINDS), most first."""
        return _counted(exclusion.kind for _, exclusion in self.excluded)

    def unknown_component_counts(self) -> dict[str, int]:
        """Uses of each component no rule knows, most used first."""
        return _component_counts(self.unknown_components)

    def hiding_component_counts(self) -> dict[str, int]:
        """Uses (with children) of each site component read as hiding its children, most first."""
        return _component_counts(self.hiding_components)

    def summary(self) -> dict[str, object]:
        return {
            "pages": len(self.pages),
            "chunks": len(self.chunks),
            "snippets_resolved": self.snippets_resolved,
            "snippets_unresolved": self.snippets_unresolved,
            "undeclared_pages": self.undeclared_pages,
            "excluded_pages": len(self.excluded),
            "excluded": self.excluded_counts(),
            "rejected_pages": len(self.skipped_pages),
            "unknown_components": self.unknown_component_counts(),
            "hiding_components": self.hiding_component_counts(),
            "warnings": list(self.warnings),
        }


def _component_counts(uses: Iterable[tuple[str, str, int]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for _, name, used in uses:
        counts[name] = counts.get(name, 0) + used
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def _counted(items: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def page_title(path: str, title: str | None, blocks: list[Block], heading_first: bool = False) -> str:
    """The front matter's `title`, else the first `# heading`; with `heading_first`, the heading
    first, as the page shows it (no `{#id}`)."""
    h1 = next((shown_heading(block)[0] if heading_first else block.text[2:] for block in blocks
               if block.kind == "heading" and block.level == 1), None)
    if title and not (heading_first and h1):
        return title
    if h1:
        return h1
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    if stem == "index":
        stem = path.rsplit("/", 2)[-2] if "/" in path else "Home"
    return stem.replace("-", " ").replace("_", " ").strip().capitalize() or path
