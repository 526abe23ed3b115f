"""The check's report: what each part found, the flags it raises, and `--fail-on`."""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field
from typing import Any

# What an internal page's anchor or link target is printed as (`--show-internal` names them).
WITHHELD = "(internal page)"
# What `--fail-on` can name, and what it fails on by default.
FLAGS = ("public", "snippet", "hidden", "warning", "anchor", "cited", "link", "question")
DEFAULT_FAIL_ON = ("public", "snippet")
# Kinds of warning that say text may be hidden from readers, or the page is misread (flag "hidden").
HIDDEN_KINDS = frozenset({"unclosed_comment", "unknown_component", "front_matter_duplicate_key",
                          "audience_conflict", "front_matter_invalid", "compose_error", "parser_rejected"})


@dataclass
class AudienceChange:
    source: str
    page: str
    before: list[str] | None  # None: the page is new
    after: list[str] | None  # None: the page is gone
    severity: int  # 3 made public, 2 widened, 1 narrowed or new or gone
    decided_by: str | None = None  # the line that decides the head's audience
    flagged: bool = False


@dataclass
class AnchorChange:
    source: str
    page: str
    anchor: str
    renamed_to: str | None = None  # None: removed
    cited_by: dict[str, int] = field(default_factory=dict)  # "answers" / "gaps" → how many
    moved_to: str | None = None  # the page was moved there (renamed_to is then an anchor of that page)
    internal: bool = False  # the page is not public: its anchors are its headings' words


@dataclass
class BrokenLink:
    source: str
    page: str
    target: str
    was: str  # "resolved" at the base, or "new" (not on the page at the base)
    internal: bool = False  # on a page that is not public: the target is its words


@dataclass
class Size:
    pages_added: int = 0
    pages_changed: int = 0
    pages_removed: int = 0
    chunks_added: int = 0
    chunks_changed: int = 0
    chunks_removed: int = 0
    to_embed: int = 0  # texts a sync would send to the provider
    from_cache: int = 0  # changed chunks whose vector the embedding cache already holds
    embedding_calls: int = 0  # provider calls (batches)
    embedding_model: str | None = None
    pages_composed_at_head: int = 0  # the others were unchanged and taken from the base


@dataclass
class Report:
    base: str
    head: str
    commits: dict[str, dict[str, str]] = field(default_factory=dict)
    audiences: list[AudienceChange] = field(default_factory=list)
    warnings: list[dict[str, Any]] = field(default_factory=list)
    anchors: list[AnchorChange] = field(default_factory=list)
    links: list[BrokenLink] = field(default_factory=list)
    questions: list[dict[str, Any]] = field(default_factory=list)
    gaps: list[dict[str, Any]] = field(default_factory=list)
    size: Size = field(default_factory=Size)
    notes: list[str] = field(default_factory=list)
    fail_on: tuple[str, ...] = DEFAULT_FAIL_ON
    seconds: float = 0.0
    show_internal: bool = False  # name the anchors and link targets of pages that are not public

    def found(self) -> dict[str, int]:
        """How many items of each flag the report holds."""
        return {
            "public": sum(1 for a in self.audiences if a.flagged),
            "snippet": sum(1 for w in self.warnings if w["kind"] == "snippet_unresolved"),
            "hidden": sum(1 for w in self.warnings if w["kind"] in HIDDEN_KINDS),
            "warning": len(self.warnings),
            "anchor": len(self.anchors),
            "cited": sum(1 for a in self.anchors if a.cited_by),
            "link": len(self.links),
            "question": sum(1 for q in self.questions if q.get("changed")),
        }

    def failed(self) -> list[str]:
        found = self.found()
        return [flag for flag in self.fail_on if found.get(flag)]

    def shown(self) -> Report:
        """The report as printed: the anchors and link targets of pages that are not public are
        withheld (WITHHELD) unless `show_internal`; they are made of those pages' words, and the
        report may go to a public pull request."""
        if self.show_internal:
            return self
        shown = copy.deepcopy(self)
        for anchor in shown.anchors:
            if anchor.internal:
                anchor.anchor = WITHHELD
                anchor.renamed_to = WITHHELD if anchor.renamed_to is not None else None
        for link in shown.links:
            if link.internal:
                link.target = WITHHELD
        if any(a.internal for a in shown.anchors) or any(link.internal for link in shown.links):
            shown.notes.append("anchors and link targets of pages that are not public are withheld "
                               "(`--show-internal` names them)")
        return shown

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self.shown())
        data["found"] = self.found()
        data["failed"] = self.failed()
        return data


def parse_fail_on(raw: str | None) -> tuple[str, ...]:
    """`public,snippet` → the flags; `none` (or "") → none. ValueError naming an unknown one."""
    if raw is None:
        return DEFAULT_FAIL_ON
    names = [n.strip().lower() for n in raw.split(",") if n.strip()]
    if names == ["none"] or not names:
        return ()
    if names == ["all"]:
        return FLAGS
    unknown = [n for n in names if n not in FLAGS]
    if unknown:
        raise ValueError(f"unknown flag {unknown[0]!r}; known: {', '.join(FLAGS)}, all, none")
    return tuple(dict.fromkeys(names))
