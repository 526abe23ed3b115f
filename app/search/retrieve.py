"""retrieve_docs: both legs concurrently, each with a timeout; fused; pages selected; degradation.

When the question cannot be embedded (no provider, failure, timeout, quota) the answer comes from
full-text alone (`degraded="keyword_only"`); when full-text fails, from vectors alone
(`"vector_only"`). Only when both fail is it an error.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Literal

import asyncpg

from app.config import Settings
from app.corpus.sources import SourcesConfig, load_sources
from app.db.pool import acquire_stateless
from app.embeddings.base import load_provider
from app.errors import DocschatError
from app.judge.confidence import Evidence, Judgment, floors_from_settings, judge
from app.logging import get_logger
from app.metrics import observe_retrieval
from app.search.fusion import FusedHit, apply_weights, evidence_fusion
from app.search.hits import Hit
from app.search.legs import match_docs_sections, query_terms, search_docs_sections
from app.search.pages import (
    PageChoice,
    pages_both_legs_rank,
    rank_overviews_with_their_page,
    select_pages,
)
from app.search.query_embedding import QueryEmbedder
from app.search.reduce import reduce_question
from app.search.rescue import Rescue, find_rescue, place_rescue
from app.search.terms import clip_question
from app.text import storable_text

log = get_logger(__name__)
Mode = Literal["hybrid", "keyword", "vector"]
MODES: tuple[Mode, ...] = ("hybrid", "keyword", "vector")


# How many of each leg's best hits the confidence looks at (coverage, agreement).
EVIDENCE_HITS = 3


class RetrievalError(DocschatError):
    """Neither leg could answer."""


@dataclass
class Retrieval:
    question: str
    mode: Mode
    degraded: str | None
    ranking: list[FusedHit]
    candidates: list[PageChoice]
    audiences: list[str] | None = None  # who asked; None = every audience (operator tools)
    terms: list[dict[str, object]] = field(default_factory=list)  # full-text terms, when explained
    legs: dict[str, list[Hit]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    timings_ms: dict[str, float] = field(default_factory=dict)
    judgment: Judgment = field(default_factory=lambda: judge(Evidence()))
    # How the query was made from a conversation (app/search/conversation.py); None: not asked.
    standalone: dict[str, object] | None = None
    rescue: Rescue | None = None  # the passage found through co-occurring words (app/search/rescue.py)

    @property
    def confidence(self) -> float:
        return self.judgment.confidence

    @property
    def floor(self) -> float:
        return self.judgment.floor

    @property
    def would_answer(self) -> bool:
        return self.judgment.would_answer

    @property
    def pages(self) -> list[PageChoice]:
        return [c for c in self.candidates if c.kept]

    def to_dict(self, explain: bool = False) -> dict[str, object]:
        data: dict[str, object] = {
            "question": self.question,
            "query": self.question,
            "mode": self.mode,
            "degraded": self.degraded,
            "audiences": self.audiences,
            **self.judgment.to_dict(),
            "pages": [p.to_dict() for p in self.pages],
        }
        if self.standalone is not None:
            data["question"] = self.standalone["asked"]
            data["standalone"] = self.standalone
        if explain:
            data["explain"] = {
                "terms": self.terms,
                "legs": {
                    leg: [{"rank": i, "id": h.id, "score": round(h.score, 6)} for i, h in enumerate(hits, 1)]
                    for leg, hits in self.legs.items()
                },
                "fused": [
                    {"id": f.hit.id, "score": round(f.score, 6), "ranks": f.ranks, "weight": f.weight}
                    for f in self.ranking
                ],
                "pages": [
                    {"source": c.source, "page": c.page, "title": c.title, "score": round(c.score, 6),
                     "weight": c.weight, "kept": c.kept, "demoted": c.demoted, "reason": c.reason}
                    for c in self.candidates
                ],
                "rescue": self.rescue.to_dict() if self.rescue else None,
                "errors": self.errors,
                "timings_ms": self.timings_ms,
                "confidence": self.judgment.explanation
                | {"low_confidence": self.judgment.low_confidence, "rule": self.judgment.rule},
            }
        return data


class Retriever:
    """Everything retrieval needs besides the question: pool, settings, question embedder."""

    def __init__(
        self, pool: asyncpg.Pool, settings: Settings, embedder: QueryEmbedder | None,
        sources: SourcesConfig | None = None,
    ) -> None:
        self.pool = pool
        self.settings = settings
        self.embedder = embedder
        self.sources = sources
        # The sources of kind "code" (files by symbol, app/corpus/code.py): no overview, no rescue.
        self.code_sources = frozenset(s.name for s in sources.sources if s.kind == "code") if sources else frozenset()

    def weight(self, source: str, page: str) -> float:
        return self.sources.weight(source, page) if self.sources else 1.0

    @property
    def model(self) -> str | None:
        """The embedding model of the vector leg (None: keyword-only)."""
        return self.embedder.provider.model if self.embedder else None

    @property
    def needs_warm_up(self) -> bool:
        """Whether the provider has something to load before the first question (the offline model)."""
        return self.embedder is not None and hasattr(self.embedder.provider, "load")

    async def warm_up(self) -> None:
        """Load the embedding model before the first question (server startup, CLI)."""
        if self.embedder is not None:
            await load_provider(self.embedder.provider)

    async def _keyword(self, question: str, audiences: list[str] | None, timings: dict[str, float]) -> list[Hit]:
        started = time.perf_counter()
        # Each leg is one select that leaves nothing in the session: its release skips asyncpg's
        # reset query, a round trip that sat between the leg's rows and the fusion; and this leg's
        # release, which takes turns of the event loop, runs after the fusion (release_later). The
        # timeouts are asyncio.timeout, not wait_for: no task of their own, so no extra turn of the
        # loop before the statement is sent and after its rows are in (design/fused-call.md).
        async with asyncio.timeout(self.settings.leg_timeout_seconds), acquire_stateless(
            self.pool, release_later=True
        ) as conn:
            hits = await search_docs_sections(conn, question, self.settings.leg_match_count, audiences)
        timings["keyword_sql"] = round((time.perf_counter() - started) * 1000, 2)
        return hits

    async def _vector(
        self, question: str, audiences: list[str] | None, timings: dict[str, float], with_coverage: bool
    ) -> list[Hit]:
        assert self.embedder is not None
        # Loading the offline model takes seconds on a busy machine; warm_up() does it before the
        # first question. Should a question still come first, the timeout covers embedding only.
        await load_provider(self.embedder.provider)
        started = time.perf_counter()
        async with asyncio.timeout(self.settings.query_embedding_timeout_seconds):
            embedding = await self.embedder.embed(self.pool, question)
        timings["embed_question"] = round((time.perf_counter() - started) * 1000, 2)
        started = time.perf_counter()
        async with acquire_stateless(self.pool) as conn, asyncio.timeout(self.settings.leg_timeout_seconds):
            hits = await match_docs_sections(
                conn, embedding, self.embedder.provider.model, self.settings.leg_match_count, audiences,
                coverage_of=question if with_coverage else None, coverage_hits=EVIDENCE_HITS,
            )
        timings["vector_sql"] = round((time.perf_counter() - started) * 1000, 2)
        return hits

    async def retrieve(
        self,
        question: str,
        *,
        mode: Mode = "hybrid",
        audiences: list[str] | None = None,
        explain: bool = False,
    ) -> Retrieval:
        """Both legs over what `audiences` may see (None: everything; FLAG_PUBLIC: public)."""
        # What the legs search: a long question reduced to its informative lines, then clipped.
        question = storable_text(question)  # a NUL or a lone surrogate failed the statements
        search_text = clip_question(reduce_question(question))
        question = clip_question(question)
        if self.settings.flag_public:
            audiences = ["public"]
        audiences = sorted(set(audiences)) if audiences is not None else None
        if not search_text.strip():
            # Nothing to search for: an empty answer, not the pages nearest to an empty vector.
            return Retrieval(question, mode, None, [], [], audiences)
        timings: dict[str, float] = {}
        started = time.perf_counter()
        errors: dict[str, str] = {}
        vector: asyncio.Task[list[Hit]] | None = None
        if mode in ("hybrid", "vector"):
            if self.embedder is None:
                errors["vector"] = "no embedding provider is configured"  # by choice: not a failure
            else:
                # The confidence reads the term coverage of both legs' best hits (the keyword leg's
                # always come with it): the vector leg brings its own while the slower leg runs.
                vector = asyncio.create_task(
                    self._vector(search_text, audiences, timings, with_coverage=mode == "hybrid")
                )
        results: dict[str, list[Hit] | BaseException] = {}
        try:
            if mode in ("hybrid", "keyword"):
                # The keyword leg, the slower one, runs in this task: its statement is sent before the
                # vector task's first step (as when it was a task created first), and the fusion
                # starts as soon as its rows are re-ranked, without the turns of the event loop that
                # a task's completion and a gather take; its connection's release runs after the
                # fusion (release_later in _keyword; design/fused-call.md).
                try:
                    results["keyword"] = await self._keyword(search_text, audiences, timings)
                except Exception as exc:  # noqa: BLE001 - any leg failure degrades the answer (was gather(return_exceptions))
                    results["keyword"] = exc
            if vector is not None:
                try:
                    results["vector"] = await vector
                except Exception as exc:  # noqa: BLE001 - any leg failure degrades the answer (was gather(return_exceptions))
                    results["vector"] = exc
        finally:
            if vector is not None and not vector.done():
                vector.cancel()  # this call was cancelled (or failed otherwise): the leg goes with it
        legs: dict[str, list[Hit]] = {}
        for name, result in results.items():
            if isinstance(result, BaseException):
                errors[name] = "timed out" if isinstance(result, TimeoutError) else f"{type(result).__name__}: {result}"
                log.warning("retrieval_leg_failed", leg=name, error=type(result).__name__)  # its text may quote the question
            else:
                legs[name] = result
        if not legs:
            raise RetrievalError("retrieval failed: " + "; ".join(f"{k}: {v}" for k, v in errors.items()))
        degraded = None
        if mode == "hybrid" and "vector" not in legs:
            degraded = "keyword_only"
        elif mode == "hybrid" and "keyword" not in legs:
            degraded = "vector_only"
        fusion_started = time.perf_counter()
        ranking = apply_weights(evidence_fusion(legs, self.settings.rrf_k), self.weight)
        candidates = select_pages(
            ranking, search_text, max_pages=self.settings.max_pages, score_ratio=self.settings.page_score_ratio,
            demoted_pages=self.settings.demoted_pages, agreed=pages_both_legs_rank(legs, self.settings.max_pages),
        )
        ranking = rank_overviews_with_their_page(ranking, code_sources=self.code_sources)  # order of sections
        timings["fusion"] = round((time.perf_counter() - fusion_started) * 1000, 2)
        judgment = self._judge(legs, timings)
        rescue = None
        # Only for an answer of low confidence: never when confident, and not for a refusal (it shows
        # no pages). And only with both legs: keyword-only confidence is coverage alone, low for
        # most long questions, and there the rescue displaced good third pages (measured).
        if len(legs) == 2 and judgment.is_low:
            rescue = await self._rescue(search_text, audiences, candidates, timings)
            if rescue is not None:
                ranking, candidates = place_rescue(rescue, ranking, candidates, self.settings.max_pages)
        timings["total"] = round((time.perf_counter() - started) * 1000, 2)
        observe_retrieval(timings)
        terms: list[dict[str, object]] = []
        if explain and "keyword" in legs:
            async with self.pool.acquire() as conn:
                terms = await query_terms(conn, search_text, audiences)
        return Retrieval(question, mode, degraded, ranking, candidates, audiences, terms, legs, errors, timings,
                         judgment, rescue=rescue)

    async def _rescue(
        self, question: str, audiences: list[str] | None, candidates: list[PageChoice], timings: dict[str, float]
    ) -> Rescue | None:
        """One passage through co-occurring words (app/search/rescue.py); None when there is none or
        it fails: the rescue is an extra, never a reason for a retrieval to fail."""
        kept = [c for c in candidates if c.kept]
        if len(kept) >= self.settings.max_pages and kept[-1].source in self.code_sources:
            return None  # the slot it would take holds a code file: a question about code
        started = time.perf_counter()
        chosen = {c.page_key for c in kept}
        try:
            async with acquire_stateless(self.pool) as conn, asyncio.timeout(self.settings.leg_timeout_seconds):
                return await find_rescue(conn, question, audiences, chosen, self.code_sources)  # two selects
        except (TimeoutError, asyncpg.PostgresError, OSError) as exc:
            log.warning("rescue_failed", error=type(exc).__name__)
            return None
        finally:
            timings["rescue"] = round((time.perf_counter() - started) * 1000, 2)

    def _judge(self, legs: dict[str, list[Hit]], timings: dict[str, float]) -> Judgment:
        """The confidence from the legs' absolute evidence (see app/judge/confidence.py)."""
        started = time.perf_counter()
        vector_hits, keyword_hits = legs.get("vector"), legs.get("keyword")
        best_cosine = 1.0 - vector_hits[0].score if vector_hits else None
        coverage = matched_idf = specific_idf = None
        if keyword_hits is not None:
            # The section of the legs' best that holds most of the question's IDF weight.
            measured = [(h.coverage, h.id) for h in keyword_hits[:EVIDENCE_HITS] + (vector_hits or [])[:EVIDENCE_HITS]
                        if h.coverage is not None]
            coverage, matched_idf = 0.0, 0.0
            if measured:
                (coverage, matched_idf, specific_idf), _ = min(measured, key=lambda m: (-m[0].share, m[1]))
        legs_agree = None
        if vector_hits is not None and keyword_hits is not None:
            legs_agree = bool(
                {h.page for h in keyword_hits[:EVIDENCE_HITS]} & {h.page for h in vector_hits[:EVIDENCE_HITS]}
            )
        evidence = Evidence(
            best_cosine=best_cosine, coverage=coverage, matched_idf=matched_idf, specific_idf=specific_idf,
            legs_agree=legs_agree,
            model=self.embedder.provider.model if self.embedder and vector_hits is not None else None,
        )
        timings["judge"] = round((time.perf_counter() - started) * 1000, 2)
        return judge(evidence, floors_from_settings(self.settings))


def build_retriever(pool: asyncpg.Pool, settings: Settings) -> Retriever:
    """A Retriever with the configured provider (None: keyword-only)."""
    from app.embeddings.providers import get_embedding_provider

    provider = get_embedding_provider(settings)
    return Retriever(pool, settings, QueryEmbedder(provider) if provider else None, load_sources(settings))


async def ready_retriever(pool: asyncpg.Pool, settings: Settings, mode: Mode = "hybrid") -> Retriever:
    """build_retriever with its model loaded, unless the mode needs none: the model loads before
    the first question, not within that question's timeout (the CLI's search and eval)."""
    retriever = build_retriever(pool, settings)
    if mode != "keyword":
        await retriever.warm_up()
    return retriever
