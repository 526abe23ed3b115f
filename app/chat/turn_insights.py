"""A chat turn's count for insights (app/insights/record.py): its question, outcome, cited pages
and embedding (for grouping near-duplicates), written once with the reply."""

from __future__ import annotations

from typing import Any

from app.insights.record import CitedPage, InsightsRecorder, Outcome, near_duplicate_cosine, page_url, record_turn
from app.judge.confidence import floors_from_settings
from app.judge.outcomes import PARTLY, REFUSED_INDOMAIN, REFUSED_OFFTOPIC, outcome
from app.logging import get_logger
from app.search.retrieve import Retrieval, Retriever

log = get_logger(__name__)


def turn_outcome(retrieval: Retrieval | None) -> Outcome | None:
    """refused (either way), partly or answered; None when the turn failed before its judgment."""
    if retrieval is None:
        return None
    judged = outcome(retrieval.judgment)
    if judged in (REFUSED_OFFTOPIC, REFUSED_INDOMAIN):
        return "refused"
    return "partly" if judged == PARTLY else "answered"


def cited_pages(sources: list[dict[str, Any]]) -> list[CitedPage]:
    """The pages of the reply's sources, each once, in order (sections of a page are the page)."""
    pages: dict[str, CitedPage] = {}
    for source in sources:
        url = page_url(str(source.get("url") or ""))
        if url and url not in pages:
            pages[url] = CitedPage(url, str(source.get("title") or url))
    return list(pages.values())


async def count_turn(
    recorder: InsightsRecorder | None, retriever: Retriever, question: str, retrieval: Retrieval | None,
    sources: list[dict[str, Any]],
) -> None:
    """Count the turn when insights are kept (the server; not `docschat ask`). The question counted is
    the one judged (the standalone question of a follow-up), as gaps count it."""
    if recorder is None:
        return
    text = retrieval.question if retrieval is not None and retrieval.question.strip() else question
    embedding, model = None, None
    embedder = retriever.embedder
    if embedder is not None and retrieval is not None and retrieval.degraded != "keyword_only":
        try:  # the question was embedded to retrieve: this is the cache's copy
            embedding, model = await embedder.embed(recorder.pool, text), embedder.provider.model
        except Exception as exc:  # noqa: BLE001 - counted without its group then
            log.warning("insights_embedding_failed", error=type(exc).__name__)
    near = near_duplicate_cosine(model, floors_from_settings(retriever.settings).cosine_scale)
    await record_turn(recorder.pool, text, turn_outcome(retrieval), cited_pages(sources), embedding, model, near)
