"""What a sync reports (per source and in all), and composing sources as the sync does: the same
warnings, a source that cannot be read named and skipped (`docschat compose`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field

from app.config import Settings
from app.corpus.compose import ComposeResult, compose_corpus
from app.corpus.sources import DEFAULT_AUDIENCE, Source
from app.errors import describe_error
from app.logging import get_logger

log = get_logger(__name__)


@dataclass
class SourceReport:
    name: str
    pages: int = 0
    chunks: int = 0
    new: int = 0
    changed: int = 0
    unchanged: int = 0
    deleted: int = 0
    undeclared_pages: int = 0
    commit: str | None = None
    error: str | None = None
    skipped_pages: list[str] = field(default_factory=list)  # could not be read: not in the index


@dataclass
class SyncReport:
    pages: int = 0
    chunks: int = 0
    new: int = 0
    changed: int = 0
    metadata_only: int = 0
    unchanged: int = 0
    deleted: int = 0
    embedded: int = 0
    cache_hits: int = 0
    seconds: float = 0.0
    embedding_model: str | None = None
    sources: list[SourceReport] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def failed(self) -> list[SourceReport]:
        return [s for s in self.sources if s.error]

    @property
    def skipped_pages(self) -> list[str]:
        """Pages that could not be read (named in the warnings), as source:path."""
        return [f"{s.name}:{path}" for s in self.sources for path in s.skipped_pages]

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def undeclared_warning(source: Source, undeclared: int, pages: int) -> str | None:
    if not undeclared or source.audiences != (DEFAULT_AUDIENCE,):
        return None
    return (
        f"source {source.name!r}: {undeclared} of {pages} pages declare no audience and are internal "
        "(the chat widget does not show them). Declare it in front matter (`audience: public`, or a list), "
        "or set the source's default (`audience` in docschat.toml, DOCS_DEFAULT_AUDIENCE for the single source)."
    )


def source_failed(name: str, exc: BaseException, source_report: SourceReport, report: SyncReport) -> None:
    reason = describe_error(exc)
    source_report.error = reason[:500]
    report.warnings.append(f"source {name!r} was not synced (its rows stay as they were): {reason[:500]}")
    log.warning("sync_source_failed", source=name, error=reason[:200])


def compose_sources(sources: Iterable[Source], settings: Settings, report: SyncReport) -> list[ComposeResult]:
    """Compose each source whole; one that cannot be read is named in the report and skipped."""
    composed: list[ComposeResult] = []
    for source in sources:
        source_report = SourceReport(source.name)
        report.sources.append(source_report)
        try:
            result = compose_corpus(source, settings)
        except Exception as exc:  # noqa: BLE001 - one source's failure must not stop the others
            source_failed(source.name, exc, source_report, report)
            continue
        source_report.pages, source_report.chunks = len(result.pages), len(result.chunks)
        source_report.commit, source_report.undeclared_pages = result.commit, result.undeclared_pages
        source_report.skipped_pages = list(result.skipped_pages)
        report.warnings.extend(f"{source.name}: {w}" for w in result.warnings)
        warning = undeclared_warning(source, result.undeclared_pages, len(result.pages))
        if warning:
            report.warnings.append(warning)
        composed.append(result)
    return composed


def compose_merged(sources: Iterable[Source], settings: Settings) -> tuple[ComposeResult, SyncReport]:
    """Every source composed as the sync composes it (the same warnings; one that cannot be read
    is skipped and named in the report), the results merged into one (`docschat compose`)."""
    report = SyncReport()
    result = ComposeResult.merged(compose_sources(sources, settings, report))
    result.warnings = report.warnings
    return result, report
