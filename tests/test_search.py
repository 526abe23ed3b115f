"""Retrieval against a real Postgres: the SQL functions, fusion, page selection, degradation, eval."""

from __future__ import annotations

import json
import math
import random
from dataclasses import replace
from pathlib import Path

import asyncpg
import pytest

from app.config import get_settings
from app.db.pool import connect
from app.embeddings.base import pad_vector
from app.judge.question_terms import everyday_words
from app.search.fusion import (
    FusedHit,
    apply_weights,
    best_first,
    evidence_fusion,
    leg_evidence,
    reciprocal_rank_fusion,
)
from app.search.hits import Coverage, Hit
from app.search.legs import match_docs_sections, search_docs_sections
from app.search.pages import (
    OVERVIEW_SHARE,
    pages_both_legs_rank,
    rank_overviews_with_their_page,
    select_pages,
)
from app.search.query_embedding import QueryEmbedder
from app.search.rescue import find_rescue
from app.search.retrieve import (
    EVIDENCE_HITS,
    RetrievalError,
    Retriever,
    build_retriever,
)
from app.search.terms import names_page
from tests.fake_gemini import fake_vector
from tests.helpers import CliRun, docschat_in_process

INSERT = """
insert into docs_section (id, source, page, title, heading, breadcrumb, href, content, audiences, content_hash,
                          embedding, embedding_model)
values ($1, 'docs', $2, $3, $4, $5, $6, $7, case when $8::boolean then '{public}' else '{internal}' end::text[],
        'h', $9, $10)
"""


async def add(conn, id_, content, *, page=None, title="Page", heading="", public=True, embedding=None, model=None):
    page = page or id_.split("#")[0]
    href = "/docs/" + page.rsplit(".", 1)[0] + (("#" + id_.split("#")[1]) if "#" in id_ else "")
    await conn.execute(INSERT, id_, page, title, heading, title, href, content, public, embedding, model)


async def refresh(conn) -> None:
    await conn.fetchval("select refresh_docs_search_stats()")


def keyword_retriever(pool, monkeypatch) -> Retriever:
    """A retriever without an embedding provider: the full-text leg alone."""
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    get_settings.cache_clear()
    return build_retriever(pool, get_settings())


NASTY = [
    "", "   ", "'", "''", '"', "a & b | !c", "foo:* & (bar", "))((", "<->", "!!!", "🎉🚀 emoji only",
    "widget 🎉 embed", "x" * 5000, " ".join(["word"] * 500), "select * from docs_section; --", "\\", "\x00", "a\x00b", "embed\x00 widget",
    "naïve café résumé", "日本語のテキスト", "1 2 3 4", "the and of to in",
]


async def test_full_text_never_errors_on_user_text(conn) -> None:
    """Operators, quotes, NULs, emoji and very long text neither raise nor spoil the query: alone they
    find nothing (none holds a word of the section), and beside a word of the section they still find
    it; text holding the section's words finds it."""
    await add(conn, "a.mdx#x", "Embed the widget with a script tag", heading="Embed")
    await refresh(conn)
    rambling = " ".join(random.Random(7).choice(["api", "add", "widget", "the", "&", "'", "😀"]) for _ in range(500))
    for text in NASTY + [rambling]:
        holds_a_word = any(word in text for word in ("widget", "embed"))
        hits = await search_docs_sections(conn, text, 10, None)
        assert [h.id for h in hits] == (["a.mdx#x"] if holds_a_word else []), text[:60]
        for beside in (f"widget {text}", f"{text} embed"[-200:]):
            hits = await search_docs_sections(conn, beside, 10, None)
            assert [h.id for h in hits] == ["a.mdx#x"], beside[:60]


async def test_a_nul_between_words_keeps_both_and_a_lone_surrogate_is_searched(pool, monkeypatch) -> None:
    """A NUL was deleted ("rotate\\0key" searched as "rotatekey": nothing found), and a lone surrogate
    (an undecodable byte from a terminal or an eval line) failed the whole retrieval with a DataError."""
    async with pool.acquire() as conn:
        await add(conn, "keys.mdx#rotate", "Rotate a key when a teammate leaves.", heading="Rotate")
        await refresh(conn)
    retriever = keyword_retriever(pool, monkeypatch)
    for question in ("rotate\x00key", "rotate \ud800 key"):
        retrieval = await retriever.retrieve(question, mode="keyword")
        assert [p.page for p in retrieval.pages] == ["keys.mdx"], question


async def test_rare_terms_outweigh_common_ones(conn) -> None:
    # "platform" is everywhere; "webhook" is in one section. Common words must not swamp the rare one.
    for i in range(40):
        await add(conn, f"p{i}.mdx#s", "The platform platform platform handles requests on the platform.", heading="Platform")
    await add(conn, "hooks.mdx#s", "Configure a webhook endpoint.", heading="Setup")
    await refresh(conn)
    hits = await search_docs_sections(conn, "platform webhook", 5, None)
    assert hits[0].id == "hooks.mdx#s"
    # Three-letter words count: "api" and "add" are terms.
    await add(conn, "api.mdx#s", "Add an API key.", heading="Keys")
    await refresh(conn)
    assert (await search_docs_sections(conn, "api", 5, None))[0].id == "api.mdx#s"
    lexemes = [r["lexeme"] for r in await conn.fetch("select lexeme from docs_query_lexemes('How do I add an API key?', null)")]
    assert set(lexemes) >= {"add", "api", "key"} and "how" not in lexemes


async def test_more_matching_terms_rank_higher(conn) -> None:
    await add(conn, "one.mdx#s", "Rotate the signing secret.", heading="One")
    await add(conn, "two.mdx#s", "Rotate the signing secret of the webhook endpoint.", heading="Two")
    for i in range(10):
        await add(conn, f"f{i}.mdx#s", f"Filler text number {i} about nothing.", heading="Filler")
    await refresh(conn)
    hits = await search_docs_sections(conn, "rotate webhook signing secret", 5, None)
    assert [h.id for h in hits[:2]] == ["two.mdx#s", "one.mdx#s"]


async def test_a_common_extra_term_still_ranks_higher(conn) -> None:
    """search_docs_sections adds up its terms' ranks: a section matching one more term ranks higher
    even when that term is the question's most common (both sections share the rarer ones; ranked
    by the best term alone they would tie)."""
    await add(conn, "one.mdx#s", "Rotate the webhook signing secret.", heading="One")
    await add(conn, "two.mdx#s", "Rotate the webhook signing secret of the endpoint.", heading="Two")
    for i in range(20):
        await add(conn, f"f{i}.mdx#s", f"Filler text number {i}" + (" about an endpoint." if i < 3 else "."),
                  heading="Filler")
    await refresh(conn)
    ndoc = {r["lexeme"]: r["ndoc"] for r in await conn.fetch(
        "select lexeme, ndoc from docs_query_lexemes('rotate webhook signing secret endpoint', null)")}
    assert ndoc["endpoint"] > max(n for lexeme, n in ndoc.items() if lexeme != "endpoint")  # the commonest
    # The SQL function itself: the leg's proximity step (proximity.py) reorders after it.
    rows = await conn.fetch("select id, rank from search_docs_sections('rotate webhook signing secret endpoint', 5,"
                            " null)")
    assert [r["id"] for r in rows[:2]] == ["two.mdx#s", "one.mdx#s"] and rows[0]["rank"] > rows[1]["rank"]


def _unit(rng: random.Random, center: list[float], spread: float) -> list[float]:
    v = [c + rng.gauss(0, spread) for c in center]
    n = math.sqrt(sum(x * x for x in v))
    return [x / n for x in v]


async def test_public_filter_inside_both_queries_with_90_percent_private(pool, owner_database_url) -> None:
    # As the owner: the exact-scan half drops the HNSW index (in a rolled-back transaction).
    async with connect(owner_database_url) as conn:
        await _check_public_filter_both_plans(conn)


async def _check_public_filter_both_plans(conn) -> None:
    rng = random.Random(42)
    centers = [[rng.gauss(0, 1) for _ in range(64)] for _ in range(8)]
    rows: list[tuple[object, ...]] = []
    for i in range(3000):
        public = i % 10 == 0
        vector = pad_vector(_unit(rng, centers[i % 8], 0.3))
        rows.append((f"d{i}.mdx#s", f"d{i}.mdx", "Doc", "S", "Doc", f"/docs/d{i}#s",
                     "shared keyword text " + ("visible" if public else "hidden"), public, vector, "m"))
    # Public rows nearest of all that no vector search may return: another model's vectors, and
    # rows with a model but no embedding (a halfvec cast of null is null: still left out).
    for i, center in enumerate(centers):
        rows.append((f"other{i}.mdx#s", f"other{i}.mdx", "Doc", "S", "Doc", f"/docs/other{i}#s", "other model",
                     True, pad_vector(center), "other-model"))
        rows.append((f"none{i}.mdx#s", f"none{i}.mdx", "Doc", "S", "Doc", f"/docs/none{i}#s", "no embedding",
                     True, None, "m"))
    await conn.executemany(INSERT, rows)
    await refresh(conn)
    await conn.execute("analyze docs_section")
    index_scans = ("select coalesce(pg_catalog.pg_stat_get_xact_numscans("
                   "pg_catalog.to_regclass('public.docs_section_embedding_idx')), 0)")  # this transaction's
    # Both plans must honour the filter: the exact scan (no HNSW index: dropped inside a rolled-back
    # transaction) and the HNSW index scan, where only the iterative scan can fill the limit. The
    # function itself must reach the index (on embedding::halfvec(768), migration 2026_12_02_0023):
    # ordered by any other expression it would scan the table exactly, for every row, unseen.
    for with_index in (False, True):
        tx = conn.transaction()
        await tx.start()
        try:
            if not with_index:
                await conn.execute("drop index docs_section_embedding_idx")
            for center in centers[:4]:
                query = pad_vector(_unit(rng, center, 0.3))
                hits = await match_docs_sections(conn, query, "m", 20, ["public"])
                assert len(hits) == 20 and all(h.audiences == ("public",) for h in hits)
                assert [h.score for h in hits] == sorted(h.score for h in hits)
                assert not any(h.id.startswith(("other", "none")) for h in hits)
                assert len(await match_docs_sections(conn, query, "unknown-model", 20, None)) == 0
            assert (await conn.fetchval(index_scans) > 0) == with_index
        finally:
            await tx.rollback()
    keyword = await search_docs_sections(conn, "shared keyword", 20, ["public"])
    assert len(keyword) == 20 and all(h.audiences == ("public",) for h in keyword)


async def test_a_null_match_count_called_by_hand_is_the_default_ten(conn) -> None:
    """In psql, `search_docs_sections('...', null)` returned every matching section (`limit null`
    is no limit) and `match_docs_sections(..., null)` every row of the model, walking the whole
    HNSW index: null now means the default, 10 (sql/functions/search_docs_sections.sql)."""
    rng = random.Random(13)
    center = [rng.gauss(0, 1) for _ in range(64)]
    rows = [(f"n{i}.mdx#s", f"n{i}.mdx", "Doc", "S", "Doc", f"/docs/n{i}#s", f"shared keyword text {i}", True,
             pad_vector(_unit(rng, center, 0.3)), "m") for i in range(25)]
    await conn.executemany(INSERT, rows)
    await refresh(conn)
    query = pad_vector(_unit(rng, center, 0.3))

    async def keyword(count: int | None) -> list:
        return await conn.fetch("select id from public.search_docs_sections('shared keyword', $1, null)", count)

    async def vector(count: int | None) -> list:
        return await conn.fetch("select id from public.match_docs_sections($1, 'm', $2, null)", query, count)

    for leg in (keyword, vector):
        nulls = await leg(None)
        assert len(nulls) == 10, leg.__name__
        assert nulls == await leg(10), leg.__name__  # the same rows as the default's
        assert len(await leg(3)) == 3 and len(await leg(20)) == 20, leg.__name__  # a count is still honoured
        with pytest.raises(asyncpg.InvalidRowCountInLimitClauseError, match="LIMIT must not be negative"):
            await leg(-1)


def _hit(id_: str, page: str, title: str = "T", heading: str = "H") -> Hit:
    return Hit(id_, "docs", page, title, heading, title, f"/docs/{page}#{id_}", f"content of {id_}", ("public",), 0.0)


def test_reciprocal_rank_fusion() -> None:
    a, b, c = _hit("a", "p1"), _hit("b", "p2"), _hit("c", "p3")
    fused = reciprocal_rank_fusion({"keyword": [a, b], "vector": [b, c]}, k=60)
    assert [f.hit.id for f in fused] == ["b", "a", "c"]
    assert math.isclose(fused[0].score, 1 / 62 + 1 / 61)
    assert fused[0].ranks == {"keyword": 2, "vector": 1}


def _scored(id_: str, score: float) -> Hit:
    return Hit(id_, "docs", f"{id_}.mdx", id_, "H", id_, f"/docs/{id_}#h", "", ("public",), score)


def test_the_parts_of_a_section_are_fused_as_one_section() -> None:
    # A long section is split into parts that share its link. The keyword leg found one part and
    # the vector leg another: both legs found the section, which outranks a section only one leg
    # ranked first. Its lower parts in one leg add nothing, and it is listed once.
    def part(id_: str) -> Hit:
        return Hit(id_, "docs", "stream.mdx", "Stream", "Tool use", "Stream", "/docs/stream#tool-use", id_,
                   ("public",), 0.0)
    words, code, more = part("stream#tool-use"), part("stream#tool-use~2"), part("stream#tool-use~3")
    other, filler = _hit("deltas", "deltas.mdx"), _hit("f", "f.mdx")
    fused = reciprocal_rank_fusion({"keyword": [other, words, more], "vector": [code, filler]})
    assert [f.hit.id for f in fused][:2] == ["stream#tool-use~2", "deltas"]
    assert [f.hit.href for f in fused].count("/docs/stream#tool-use") == 1
    assert fused[0].ranks == {"keyword": 2, "vector": 1}
    assert math.isclose(fused[0].score, 1 / 62 + 1 / 61)  # the third part (keyword rank 3) adds nothing


def test_each_leg_gives_two_units_of_evidence_a_flat_one_evenly() -> None:
    """A leg hands out one unit by score shape and one by rank, whatever its scores: a flat leg
    (every hit the same score) spreads its shape unit evenly, and its rank unit is scaled to one
    like any leg's. So a leg of n hits always gives 2 in all, the first hit never less than the last."""
    flat = [_scored(f"f{i}", 0.5) for i in range(10)]
    peaked = [_scored("best", 0.9)] + [_scored(f"p{i}", 0.1) for i in range(9)]
    for leg, hits in (("keyword", flat), ("vector", flat), ("keyword", peaked), ("vector", peaked[::-1])):
        evidence = leg_evidence(leg, hits)
        assert math.isclose(sum(evidence), 2.0), (leg, evidence)
        assert evidence == sorted(evidence, reverse=True), (leg, evidence)
    flat_evidence = leg_evidence("keyword", flat)
    ranks = [1 / (60 + r) for r in range(1, 11)]
    assert flat_evidence == pytest.approx([0.1 + r / sum(ranks) for r in ranks])  # shape 1/n each
    assert leg_evidence("keyword", []) == []


def test_a_tie_goes_to_the_better_best_rank_then_the_id() -> None:
    """Equal fused scores keep a stable order: the hit one leg ranked highest first, then by id."""
    once_first = FusedHit(_hit("z", "z.mdx"), 1.0, {"keyword": 1, "vector": 5})
    twice_second = FusedHit(_hit("a", "a.mdx"), 1.0, {"keyword": 2, "vector": 2})
    same_ranks = FusedHit(_hit("b", "b.mdx"), 1.0, {"keyword": 2, "vector": 2})
    assert [f.hit.id for f in best_first([same_ranks, twice_second, once_first])] == ["z", "a", "b"]


def test_page_weights_multiply_the_fused_score_and_reorder() -> None:
    """A source weight or path boost scales a page's fused score (a weight of 0.4 is 40 % of it),
    and the list is sorted again by the weighted scores."""
    strong, weak = FusedHit(_hit("s", "s.mdx"), 2.0, {"keyword": 1}), FusedHit(_hit("w", "w.mdx"), 1.0, {"keyword": 2})
    weighted = apply_weights([strong, weak], lambda _source, page: 0.4 if page == "s.mdx" else 1.0)
    assert [(f.hit.id, f.score, f.weight) for f in weighted] == [("w", 1.0, 1.0), ("s", pytest.approx(0.8), 0.4)]


def test_a_confident_leg_is_not_outvoted_by_a_flat_one() -> None:
    # Full-text is sure (its best hit far above the rest); the vector leg has no idea (ten
    # near-equal distances) and ranks that hit last. Equal RRF lets the flat leg decide.
    keyword = [_scored("answer", 9.0)] + [_scored(f"k{i}", 1.0 - i / 100) for i in range(9)]
    vector = [_scored(f"k{i}", 0.500 + i / 1000) for i in range(9)] + [_scored("answer", 0.509)]
    legs = {"keyword": keyword, "vector": vector}
    assert reciprocal_rank_fusion(legs)[0].hit.id == "k0"
    assert evidence_fusion(legs)[0].hit.id == "answer"
    # The same the other way round: a sure vector leg (one close hit) against flat full-text.
    keyword = [_scored(f"k{i}", 2.0 - i / 100) for i in range(9)] + [_scored("answer", 1.90)]
    vector = [_scored("answer", 0.20)] + [_scored(f"k{i}", 0.70 + i / 1000) for i in range(9)]
    assert evidence_fusion({"keyword": keyword, "vector": vector})[0].hit.id == "answer"
    # Hits that both legs rank well still beat a hit only one leg found, when neither leg is sure.
    flat_k = [_scored(x, 1.0 - i / 100) for i, x in enumerate(["solo", "both", "a", "b", "c"])]
    flat_v = [_scored(x, 0.5 + i / 1000) for i, x in enumerate(["both", "d", "e", "f", "g"])]
    assert evidence_fusion({"keyword": flat_k, "vector": flat_v})[0].hit.id == "both"


def test_page_selection_ratio_cap_demotion_and_excerpt() -> None:
    hits = [
        _hit("privacy", "privacy.mdx", "Privacy Policy"),
        _hit("w-overview", "widget.mdx", "Widget", heading=""),
        _hit("w-embed", "widget.mdx", "Widget", heading="Embed"),
        _hit("s", "sync.mdx", "Sync"),
        _hit("c", "chat.mdx", "Chat"),
        _hit("z", "far.mdx", "Far"),
    ]
    fused = reciprocal_rank_fusion({"keyword": hits, "vector": hits[:5]}, k=1)
    pages = select_pages(fused, "how do I embed it", max_pages=3, score_ratio=0.3, demoted_pages=["Privacy Policy"])
    kept = [p.title for p in pages if p.kept]
    assert kept[0] == "Widget" and "Privacy Policy" not in kept[:1] and len(kept) <= 3
    assert pages[0].heading == "Embed" and pages[0].excerpt == "content of w-embed"
    assert all(p.score >= 0.3 * pages[0].score for p in pages if p.kept)
    named = select_pages(fused, "what does the privacy policy say", demoted_pages=["Privacy Policy"])
    privacy = next(p for p in named if p.title == "Privacy Policy")
    assert privacy.kept and not privacy.demoted and privacy.score == privacy.raw_score
    # The ratio on its own: a weak page is dropped although the cap (3) has room for it, and the
    # breadcrumb of the excerpt's section comes along.
    scored = [FusedHit(_hit("a", "a.mdx", "A"), 1.0), FusedHit(_hit("b", "b.mdx", "B"), 0.6),
              FusedHit(_hit("c", "c.mdx", "C"), 0.2)]
    by_ratio = select_pages(scored, "q", max_pages=3, score_ratio=0.5)
    assert [p.title for p in by_ratio if p.kept] == ["A", "B"]
    assert by_ratio[2].reason == "dropped: score below 0.50 × best" and by_ratio[0].breadcrumb == "A"


def test_a_page_whose_overview_and_a_section_match_outranks_one_lucky_section() -> None:
    lucky = FusedHit(_hit("a-s", "a.mdx", "A", heading="Aside"), 1.0)
    overview = FusedHit(_hit("b", "b.mdx", "B", heading=""), 0.6)
    section = FusedHit(_hit("b-s", "b.mdx", "B", heading="Setup"), 0.6)
    pages = select_pages([lucky, overview, section], "q")
    assert [p.title for p in pages] == ["B", "A"] and pages[0].heading == "Setup"
    # Two sections of one page are not such evidence: the lucky section keeps the lead.
    other = FusedHit(_hit("b-t", "b.mdx", "B", heading="Usage"), 0.6)
    assert [p.title for p in select_pages([lucky, section, other], "q")] == ["A", "B"]


def test_a_page_both_legs_rank_among_their_best_is_kept() -> None:
    """Page D is each leg's best or third page, through a different section in each leg: no
    section of it has both legs' evidence, so its fused score is fifth. Both legs agreeing on a
    page is better evidence than C, which only the keyword leg likes (the vector leg ranks it last)."""

    def hit(id_: str, page: str, score: float) -> Hit:
        return replace(_hit(id_, f"{page}.mdx", page.upper()), score=score)

    legs = {"keyword": [hit("a", "a", 10), hit("c", "c", 9.9), hit("d1", "d", 9.5), hit("b", "b", 9.4), hit("e", "e", 5)],
            "vector": [hit("d2", "d", 0.30), hit("a", "a", 0.31), hit("b", "b", 0.32), hit("e", "e", 0.34),
                       hit("c", "c", 0.50)]}
    fused = evidence_fusion(legs)
    assert pages_both_legs_rank(legs, 3) == {"docs:a.mdx", "docs:d.mdx"}
    assert [p.title for p in select_pages(fused, "q") if p.kept] == ["A", "B", "C"]  # by fused score alone
    chosen = select_pages(fused, "q", agreed=pages_both_legs_rank(legs, 3))
    assert [p.title for p in chosen if p.kept] == ["A", "B", "D"]  # in fused order still
    assert next(p for p in chosen if p.title == "D").reason == "kept: both legs rank it among their best pages"
    assert pages_both_legs_rank({"keyword": legs["keyword"]}, 3) == frozenset()  # one leg agrees with nobody


def test_an_overview_shares_its_page_evidence_in_the_order_of_sections() -> None:
    # "Does Ray support NCCL?" is answered by the collective page as a whole: its opening says what
    # it offers. One detailed section elsewhere out-scores that opening on the words alone.
    detail = FusedHit(_hit("gpus-nccl", "gpus.mdx", "GPUs", heading="NCCL variables"), 1.0, {"keyword": 1})
    overview = FusedHit(_hit("coll", "collective.mdx", "Collective", heading=""), 0.9, {"keyword": 3})
    matrix = FusedHit(_hit("coll-matrix", "collective.mdx", "Collective", heading="Support matrix"), 0.8, {"keyword": 4})
    lone_overview = FusedHit(_hit("intro", "intro.mdx", "Intro", heading=""), 0.95, {"keyword": 2})  # no section of its page matched
    ranked = rank_overviews_with_their_page([detail, lone_overview, overview, matrix])
    assert [f.hit.id for f in ranked] == ["coll", "gpus-nccl", "intro", "coll-matrix"]
    assert ranked[0].score == pytest.approx(0.9 + OVERVIEW_SHARE * 0.8)
    # Sections and an overview whose page matched nothing else keep their scores.
    assert {f.hit.id: f.score for f in ranked[1:]} == {"gpus-nccl": 1.0, "intro": 0.95, "coll-matrix": 0.8}
    # A code file's top-level lines (imports, constants) are not an overview: left as they are.
    as_code = rank_overviews_with_their_page([detail, lone_overview, overview, matrix],
                                             code_sources=frozenset({"docs"}))
    assert [f.hit.id for f in as_code] == ["gpus-nccl", "intro", "coll", "coll-matrix"]


async def test_retrieval_orders_sections_with_their_page_overview_and_chooses_pages_as_fused(pool, monkeypatch) -> None:
    async with pool.acquire() as conn:
        await add(conn, "collective.mdx", "The collective library offers NCCL and GLOO backends to Ray.",
                  title="Collective", heading="")
        await add(conn, "collective.mdx#matrix", "Which backend supports which primitive: NCCL on GPUs.",
                  page="collective.mdx", title="Collective", heading="Support matrix")
        await add(conn, "gpus.mdx#nccl", "Set NCCL_DEBUG to see what NCCL does; NCCL_SOCKET_IFNAME picks NCCL's "
                  "network interface.", title="GPUs", heading="NCCL variables")
        for i in range(20):
            await add(conn, f"f{i}.mdx#s", f"Unrelated filler {i}.", title=f"F{i}", heading="F")
        await refresh(conn)
    retrieval = await keyword_retriever(pool, monkeypatch).retrieve("Does Ray support NCCL?")
    leg = [h.id for h in retrieval.legs["keyword"]]
    order = [f.hit.id for f in retrieval.ranking]
    assert leg.index("gpus.mdx#nccl") < leg.index("collective.mdx")  # on the words alone
    assert order.index("collective.mdx") < order.index("gpus.mdx#nccl")  # with its page's evidence
    # Pages are chosen on the fused scores as they were: the overview's raise is not counted twice.
    page = next(p for p in retrieval.pages if p.page == "collective.mdx")
    raised = next(f for f in retrieval.ranking if f.hit.id == "collective.mdx")
    fused = next(f for f in page.chunks if f.hit.id == "collective.mdx")
    assert raised.score > fused.score and page.raw_score == pytest.approx(sum(f.score for f in page.chunks))


RESCUE_DOCS = [
    # "scatter" and "spread" go together in three sections; the answer says only "spread".
    ("gather.mdx#s", "Scatter and gather: scatter splits the data, spread evenly.", "Gather", "S"),
    ("plots.mdx#s", "Scatter plots spread the points out.", "Plots", "S"),
    ("files.mdx#s", "To scatter files, spread them over buckets.", "Files", "S"),
    ("scheduling.mdx#spread", "The SPREAD strategy places work on different nodes.", "Scheduling", "Spread"),
]


async def _seed_rescue_docs(pool, model: str | None) -> None:
    async with pool.acquire() as conn:
        for id_, text, title, heading in RESCUE_DOCS:
            await add(conn, id_, text, title=title, heading=heading,
                      embedding=pad_vector(fake_vector(text)) if model else None, model=model)
        for i in range(20):
            text = f"Unrelated filler {i} about the weather."
            await add(conn, f"f{i}.mdx#s", text, title=f"F{i}", heading="F",
                      embedding=pad_vector(fake_vector(text)) if model else None, model=model)
        await refresh(conn)


async def test_words_the_docs_use_beside_the_questions_rescue_one_passage(pool, fake_gemini, monkeypatch) -> None:
    model = build_retriever(pool, get_settings()).model
    await _seed_rescue_docs(pool, model)
    async with pool.acquire() as conn:
        terms = [r["lexeme"] for r in await conn.fetch("select lexeme from docs_cooccurring_terms('scatter my actors', null)")]
    assert terms == ["spread"]  # the one word found beside "scatter" in two sections or more
    # Words of pages the asker may not see are never offered, nor counted.
    async with pool.acquire() as conn:
        for i in range(2):
            await add(conn, f"secret{i}.mdx#s", "Scatter the quarantine keys.", title="Secret", public=False)
        await refresh(conn)
        everyone = [r["lexeme"] for r in await conn.fetch("select lexeme from docs_cooccurring_terms('scatter', null)")]
        public = [r["lexeme"] for r in await conn.fetch(
            "select lexeme from docs_cooccurring_terms('scatter', '{public}')")]
    assert "quarantin" in everyone and public == ["spread"]
    question = "how do I scatter my actors"
    monkeypatch.setenv("PAGE_SCORE_RATIO", "0.01")  # the three pages holding "scatter" are kept
    monkeypatch.setenv("ANSWER_FLOOR", "0")  # answered (a refusal shows no pages: nothing to rescue)...
    monkeypatch.setenv("LOW_CONFIDENCE", "0.99")  # ...with low confidence: the rescue runs
    get_settings.cache_clear()
    retrieval = await build_retriever(pool, get_settings()).retrieve(question, audiences=["public"], explain=True)
    assert retrieval.judgment.is_low
    assert "scheduling.mdx" not in {h.page for leg in retrieval.legs.values() for h in leg[:3]}
    assert retrieval.rescue is not None and retrieval.rescue.hit.id == "scheduling.mdx#spread"
    assert [p.page for p in retrieval.pages][-1] == "scheduling.mdx" and len(retrieval.pages) == 3
    assert retrieval.ranking[2].hit.id == "scheduling.mdx#spread"  # third: it reorders nothing above it
    dropped = [c for c in retrieval.candidates if c.reason == "dropped: its slot went to a rescued passage"]
    assert len(dropped) == 1
    assert retrieval.to_dict(explain=True)["explain"]["rescue"]["terms"] == ["spread"]
    # Files of a code source are never rescued (questions about code name their symbols).
    chosen = {f"docs:{p.page}" for p in retrieval.pages[:2]}
    async with pool.acquire() as conn:
        assert (await find_rescue(conn, question, ["public"], chosen)).hit.id == "scheduling.mdx#spread"
        assert await find_rescue(conn, question, ["public"], chosen, code_sources=frozenset({"docs"})) is None
    # A confident retrieval is never touched: with the low-confidence line at 0 nothing is rescued;
    # nor is a refused one (it shows no pages).
    monkeypatch.setenv("LOW_CONFIDENCE", "0")
    get_settings.cache_clear()
    confident = await build_retriever(pool, get_settings()).retrieve(question, audiences=["public"])
    assert confident.rescue is None and "scheduling.mdx" not in [p.page for p in confident.pages]
    monkeypatch.setenv("ANSWER_FLOOR", "0.99")
    monkeypatch.delenv("LOW_CONFIDENCE")
    get_settings.cache_clear()
    refused = await build_retriever(pool, get_settings()).retrieve(question, audiences=["public"])
    assert not refused.would_answer and refused.rescue is None


async def test_the_legs_bring_the_term_coverage_the_confidence_reads(pool, fake_gemini, monkeypatch) -> None:
    """Coverage comes inside each leg's statement (no round trip after the legs), and the confidence
    takes the best of both legs' top hits: a vector hit holding every word counts too."""
    retriever = build_retriever(pool, get_settings())
    async with pool.acquire() as conn:
        for id_, text in [("keys.mdx#rotate", "Rotate an API key from the console"),
                          ("limits.mdx#tiers", "Rate limits depend on the usage tier")]:
            await add(conn, id_, text, embedding=pad_vector(fake_vector(text)), model=retriever.model)
        await refresh(conn)
        expected = {r["id"]: r["coverage"] for r in await conn.fetch(
            "select * from docs_term_coverage($1, array['keys.mdx#rotate', 'limits.mdx#tiers'], null)", "rotate a key")}
    retrieval = await retriever.retrieve("rotate a key")
    for leg in ("keyword", "vector"):  # the vector leg's order is final: its first three only
        hits = retrieval.legs[leg] if leg == "keyword" else retrieval.legs[leg][:EVIDENCE_HITS]
        assert {h.id: h.coverage.share for h in hits} == {h.id: pytest.approx(expected[h.id]) for h in hits}, leg
    assert retrieval.judgment.explanation["coverage"] == pytest.approx(1.0)

    def with_coverage(id_: str, share: float) -> Hit:
        return replace(_hit(id_, id_.split("#")[0]), score=0.5, coverage=Coverage(share, share * 10, 5.0))

    partial = [with_coverage("a.mdx#s", 0.3)]
    judged = {share: retriever._judge({"keyword": partial, "vector": [with_coverage("b.mdx#s", share)]}, {})
              for share in (0.1, 0.9)}
    assert judged[0.1].explanation["coverage"] == pytest.approx(0.3)
    assert judged[0.9].explanation["coverage"] == pytest.approx(0.9)  # from the vector leg's hit


def test_question_names_page() -> None:
    assert names_page("How do cucumber tests run?", "Cucumber Tests")
    assert not names_page("How private is my data?", "Privacy Policy")
    assert names_page("terms of service for resellers", "Terms of Service")


async def test_repeated_question_makes_no_provider_call(pool, fake_gemini) -> None:
    settings = get_settings()
    retriever = build_retriever(pool, settings)
    first = await retriever.retrieve("How do I embed the widget?")
    second = await retriever.retrieve("how do I   EMBED the widget?")
    assert first.degraded is None and second.degraded is None
    assert len(fake_gemini.embed_calls()) == 1
    assert fake_gemini.embed_calls()[0]["body"]["requests"][0]["taskType"] == "RETRIEVAL_QUERY"
    fresh = build_retriever(pool, settings)  # a new process: the in-memory LRU is empty, the table is not
    again = await fresh.retrieve("How do I embed the widget?")
    assert len(fake_gemini.embed_calls()) == 1 and again.degraded is None, again.errors
    async with pool.acquire() as conn:
        stored = await conn.fetch("select id, model from docs_query_embedding")
    assert len(stored) == 1 and "widget" not in stored[0]["id"] and len(stored[0]["id"]) == 64


async def test_degrades_to_keyword_only_when_embedding_fails(pool, fake_gemini, monkeypatch) -> None:
    async with pool.acquire() as conn:
        await add(conn, "a.mdx#x", "Embed the widget with a script tag", title="Widget", heading="Embed")
        await refresh(conn)
    fake_gemini.fail_statuses = [429] * 100
    monkeypatch.setenv("EMBEDDING_MAX_RETRIES", "1")
    get_settings.cache_clear()
    retrieval = await build_retriever(pool, get_settings()).retrieve("embed widget")
    assert retrieval.degraded == "keyword_only" and retrieval.pages[0].title == "Widget"
    assert "429" in retrieval.errors["vector"]


async def test_degrades_to_vector_only_when_full_text_fails_and_errors_when_both_fail(
    pool, fake_gemini, owner_database_url
) -> None:
    await add_one_widget_section(pool)
    # A real outage of the full-text function: renamed away (by its owner) for the duration of the test.
    owner = await asyncpg.connect(owner_database_url)
    await owner.execute("alter function public.search_docs_sections rename to search_docs_sections_away")
    try:
        retriever = build_retriever(pool, get_settings())
        retrieval = await retriever.retrieve("embed the widget")
        assert retrieval.degraded == "vector_only" and retrieval.pages[0].title == "Widget"
        fake_gemini.fail_statuses = [500] * 100
        retriever.embedder.provider.max_retries = 0
        broken = Retriever(pool, get_settings(), QueryEmbedder(retriever.embedder.provider))
        with pytest.raises(RetrievalError, match=r"(?s)keyword: .*vector: .*HTTP 500"):
            await broken.retrieve("a different question")
    finally:
        await owner.execute("alter function public.search_docs_sections_away rename to search_docs_sections")
        await owner.close()


async def test_blank_question_finds_nothing(pool, fake_gemini) -> None:
    async with pool.acquire() as conn:
        await add(conn, "a.mdx#x", "Embed the widget", title="Widget", heading="Embed")
        await refresh(conn)
    for blank in ("", "   \n\t"):
        retrieval = await build_retriever(pool, get_settings()).retrieve(blank)
        assert retrieval.pages == [] and retrieval.ranking == []
    assert fake_gemini.embed_calls() == []


async def test_flag_public_makes_every_retrieval_public_only(pool, monkeypatch) -> None:
    async with pool.acquire() as conn:
        await add(conn, "open.mdx#x", "deploy guide for teams", title="Open", heading="Deploy")
        await add(conn, "closed.mdx#x", "deploy guide for staff", title="Closed", heading="Deploy", public=False)
        await refresh(conn)
    both = await keyword_retriever(pool, monkeypatch).retrieve("deploy guide")
    assert {p.title for p in both.pages} == {"Open", "Closed"}
    monkeypatch.setenv("FLAG_PUBLIC", "true")
    get_settings.cache_clear()
    only = await build_retriever(pool, get_settings()).retrieve("deploy guide")
    assert [p.title for p in only.pages] == ["Open"]


async def test_a_typo_in_a_rare_word_still_finds_its_section(conn) -> None:
    await add(conn, "scale.mdx#s", "Request resources programmatically to scale the cluster.", heading="Scaling")
    await add(conn, "hooks.mdx#s", "Configure a webhook endpoint.", heading="Setup")
    for i in range(10):
        await add(conn, f"f{i}.mdx#s", f"Filler text number {i} about the cluster.", heading="Filler")
    await refresh(conn)
    # "programatically" (one m) is in no section; one edit away is the word the docs use.
    assert [h.id for h in await search_docs_sections(conn, "programatically", 5, None)] == ["scale.mdx#s"]
    assert await conn.fetchval("select docs_search_text('programatically', null)") == "programmat"
    # Words no section holds are dropped, not kept as the "rarest" terms: thirteen of them would
    # take every term slot (12) and the one real word would be left out.
    nonsense = " ".join(f"zq{a}{b}" for a in "xyz" for b in "abcde")[:64]
    hits = await search_docs_sections(conn, f"{nonsense} webhook", 5, None)
    assert hits and hits[0].id == "hooks.mdx#s"
    # Short words are not "corrected": a 4-letter stem has too many neighbours.
    assert await conn.fetchval("select docs_search_text('clustr tsst', null)") == "cluster"
    # A typo is corrected only to a word the asker may see.
    await add(conn, "secret.mdx#s", "The quarantine procedure.", heading="Q", public=False)
    await refresh(conn)
    assert await conn.fetchval("select docs_search_text('quarantin', '{public}')") == ""
    assert await conn.fetchval("select docs_search_text('quarantin', null)") == "quarantin"


async def test_an_everyday_word_the_docs_do_not_use_is_no_typo(conn) -> None:
    """"samples" is one edit from "simple" (stems sampl, simpl), which these docs use: a whole word
    of the language is no typo, so the keyword leg drops it instead of searching "simple"
    (question_terms.everyday_words; a real typo, "programatically", is still corrected)."""
    await add(conn, "simple.mdx#s", "A simple setup for the widget.", heading="Setup")
    await add(conn, "scale.mdx#s", "Request resources programmatically.", heading="Scaling")
    for i in range(10):
        await add(conn, f"f{i}.mdx#s", f"Filler text number {i}.", heading="Filler")
    await refresh(conn)
    assert everyday_words("Any samples?") == ["any", "samples"]
    assert everyday_words("it doesnt work") == ["it", "work"]  # "doesnt" is a typo, of "doesn't"
    assert await search_docs_sections(conn, "Any samples?", 5, None) == []
    assert [h.id for h in await search_docs_sections(conn, "samples programatically", 5, None)] == ["scale.mdx#s"]
    # Told no everyday word (null), the typo step corrects it as before.
    assert await conn.fetchval("select docs_search_text('samples', null)") == "simpl"
    assert await conn.fetchval("select docs_search_text('samples', null, everyday_words => '{samples}')") == ""


async def test_two_letter_words_are_search_terms(conn) -> None:
    # "IP" is the question's rarest word; without it, the ten sections on the head node win.
    await add(conn, "misc.mdx#addresses", "Each node's IP address is listed by ray.nodes().", heading="Addresses")
    for i in range(10):
        await add(conn, f"head{i}.mdx#s", f"Start the head node ({i}).", heading="Setup")
    for i in range(30):
        await add(conn, f"f{i}.mdx#s", f"Unrelated filler {i}.", heading="F")
    await refresh(conn)
    lexemes = [r["lexeme"] for r in await conn.fetch("select lexeme from docs_query_lexemes('the IP of the head node', null)")]
    assert lexemes[0] == "ip"  # found in one section: the rarest term
    hits = await search_docs_sections(conn, "what is the IP of the head node", 5, None)
    assert hits[0].id == "misc.mdx#addresses"
    # Stop words of two letters are still not terms.
    assert await conn.fetchval("select count(*) from docs_query_lexemes('is it on or to me', null)") == 0


async def test_a_term_in_more_than_a_quarter_of_the_sections_is_left_out(conn) -> None:
    # "use" is in 30% of 400 sections: too common to say what a question is about (a term in
    # fewer than 100 sections is always kept, so the corpus has to be this large).
    rows = [(f"p{i}.mdx#s", f"p{i}.mdx", "Page", "S", "Page", f"/docs/p{i}#s",
             ("Use the dashboard." if i % 10 < 3 else f"Filler {i}.") + (" Rotate the webhook secret." if i == 7 else ""),
             True, None, None) for i in range(400)]
    await conn.executemany(INSERT, rows)
    await refresh(conn)
    lexemes = [r["lexeme"] for r in await conn.fetch("select lexeme from docs_query_lexemes('use the webhook', null)")]
    assert lexemes == ["webhook"]
    assert [r["lexeme"] for r in await conn.fetch(
        "select lexeme from docs_query_lexemes('use the webhook', null, 0.5)")] == ["webhook", "use"]
    hits = await search_docs_sections(conn, "how do I use the webhook", 5, None)
    assert [h.id for h in hits] == ["p7.mdx#s"]  # only the rare term finds candidates, and ranks them


async def test_words_standing_together_as_in_the_question_rank_higher(pool, monkeypatch) -> None:
    async with pool.acquire() as conn:
        # Both sections hold "head" and "node"; only one holds them together, and it says so less often.
        await add(conn, "queues.mdx#s", "The head of the queue moves to another node. Each node keeps "
                  "the head of its own queue, and a node restarts the head task.", title="Queues", heading="Order")
        await add(conn, "nodes.mdx#s", "Get the address of the head node with ray.nodes().", title="Cluster",
                  heading="Addresses")
        for i in range(8):
            await add(conn, f"f{i}.mdx#s", f"Unrelated filler {i}.", title=f"F{i}", heading="F")
        await refresh(conn)
        plain = await conn.fetch("select id from search_docs_sections('where is the head node', 5, null)")
        leg = await search_docs_sections(conn, "where is the head node", 5, None)
    assert plain[0]["id"] == "queues.mdx#s"  # term by term (the SQL alone), the scattered section wins
    assert leg[0].id == "nodes.mdx#s"
    retrieval = await keyword_retriever(pool, monkeypatch).retrieve("where is the head node")
    assert retrieval.legs["keyword"][0].id == "nodes.mdx#s"
    assert retrieval.pages[0].title == "Cluster"


TRACE_QUESTION = (
    "My job fails as soon as I start it, how do I fix this?\n"
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.10/site-packages/ray/_private/worker.py", line 2493, in get_objects\n'
    '  File "/opt/venv/lib/python3.10/site-packages/ray/_private/client_mode_hook.py", line 103, in wrapper\n'
    '  File "/opt/venv/lib/python3.10/site-packages/ray/remote_function.py", line 226, in _remote\n'
    '  File "/opt/venv/lib/python3.10/site-packages/ray/_private/serialization.py", line 88, in pickle_dumps\n'
    "ValueError: The actor ImplicitFunc is too large (150 MiB > 95 MiB)\n"
)


async def test_a_pasted_traceback_is_searched_by_its_error_line(pool, monkeypatch) -> None:
    async with pool.acquire() as conn:
        await add(conn, "closures.mdx#s", "ValueError: the actor ImplicitFunc is too large. Keep big data out of "
                  "the closure and pass a reference instead.", title="Closures", heading="Too large")
        await add(conn, "tune.mdx#s", "ImplicitFunc wraps a trainable.", title="Tune", heading="Trainables")
        # Every word of the frames, each in one section: rarer than the error's words.
        await add(conn, "install.mdx#s", "opt venv lib site packages private worker objects client mode hook "
                  "wrapper remote function serialization pickle dumps", title="Install", heading="Paths")
        for i in range(6):
            await add(conn, f"f{i}.mdx#s", f"An actor that is large number {i}.", title=f"F{i}", heading="F")
        await refresh(conn)
    retrieval = await keyword_retriever(pool, monkeypatch).retrieve(TRACE_QUESTION)
    assert retrieval.pages[0].title == "Closures", [p.title for p in retrieval.pages]
    assert retrieval.question == TRACE_QUESTION  # what was asked is kept; only the search is reduced


def _cli(*args: str, env: dict[str, str] | None = None) -> CliRun:
    return docschat_in_process(*args, env=env)


async def test_search_and_eval_cli(pool, db_env, tmp_path: Path) -> None:
    async with pool.acquire() as conn:
        await add(conn, "en/widget.mdx#embed", "Embed the widget with one script tag", title="Widget", heading="Embed")
        await add(conn, "en/sync.mdx#run", "Run the sync command in CI", title="Sync", heading="Run")
        await refresh(conn)
    env = {"EMBEDDING_PROVIDER": "none"}
    result = _cli("search", "embed the widget", "--json", "--explain", env=env)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["degraded"] == "keyword_only"
    assert data["pages"][0]["href"] == "/docs/en/widget#embed"
    assert {"title", "href", "score", "excerpt", "heading"} <= set(data["pages"][0])
    assert data["explain"]["legs"]["keyword"][0]["id"] == "en/widget.mdx#embed"
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        json.dumps({"question": "how to embed the widget", "gold": ["https://x.test/docs/en/widget#embed/"]}) + "\n"
        + json.dumps({"question": "run sync in CI", "gold": ["https://x.test/docs/en/sync#run", "https://x.test/docs/en/sync#other"]}) + "\n"
    )
    result = _cli("eval", str(questions), "--json", "--mode", "keyword", env={**env, "DOCS_BASE_URL": "https://x.test"})
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["questions"] == 2 and report["mrr"] == 1.0 and report["recall"] == 0.75
    assert report["page_recall"] == 1.0 and len(report["per_question"]) == 2
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"question": "x"}\n')
    result = _cli("eval", str(bad), env=env)
    assert result.returncode == 1 and "bad.jsonl:1" in result.stderr and "gold" in result.stderr


HEAD_SQL = """
select id, rank from search_docs_sections($1, $2, $3, candidate_rows => $4, rank_weights => $5)
"""


async def test_a_common_terms_head_gives_the_list_every_candidate_gives(conn) -> None:
    """A question left with one term in more than candidate_rows sections ranks first the sections
    holding it in their title or heading (docs_section_fts_head_idx), and reads the others only
    when those cannot make the list: the same list, ranks and order as ranking every candidate."""
    rows = []
    for i in range(12):  # the title, and once in the body
        rows.append((f"t{i}.mdx#s", f"t{i}.mdx", "Deploy guide", "Steps", "Deploy guide", f"/docs/t{i}#s",
                     f"Run the deploy step {i}.", i % 3 != 0, None, None))
    for i in range(6):  # three times in the heading and in the body: above a title found once
        rows.append((f"h{i}.mdx#s", f"h{i}.mdx", "Guide", "Deploy deploy deploy", "Guide", f"/docs/h{i}#s",
                     "Deploy, deploy, deploy again.", True, None, None))
    for i in range(150):  # body text only, once or many times
        rows.append((f"b{i}.mdx#s", f"b{i}.mdx", "Notes", "Notes", "Notes", f"/docs/b{i}#s",
                     " ".join(["deploy"] * (1 + i % 9)) + f" note {i}.", i % 4 != 0, None, None))
    await conn.executemany(INSERT, rows)
    await refresh(conn)
    default, flat = [0.1, 0.4, 0.8, 1.0], [0.1, 0.4, 0.41, 0.42]  # flat: the body outranks the head

    async def ranks(n, audiences, candidate_rows, weights):
        return [tuple(r) for r in await conn.fetch(HEAD_SQL, "deploy", n, audiences, candidate_rows, weights)]

    async def head_scans() -> int:
        return await conn.fetchval("select pg_stat_get_xact_numscans('docs_section_fts_head_idx'::regclass)")

    for weights in (default, flat):
        for n in (5, 10, 18, 40, None):
            for audiences in (["public"], None):
                async with conn.transaction():
                    await conn.execute("set local enable_seqscan = off")  # 168 rows: the index all the same
                    # A plan cached by this backend before (PostgreSQL 18 caches SQL functions' plans;
                    # behind PgBouncer the backend served earlier tests) was made with seqscans on.
                    await conn.execute("discard plans")
                    before = await head_scans()
                    by_head = await ranks(n, audiences, 10, weights)  # 168 sections hold it: the head is tried
                    assert await head_scans() == before + 1
                    every = await ranks(n, audiences, 100_000, weights)  # a small draw: every candidate
                    assert await head_scans() == before + 1
                assert by_head == every, (weights, n, audiences)
                assert len(every) == min(n or 10, 168 if audiences is None else 132)
    # The heading sections lead the list, the titles follow, the body-only sections come last.
    ids = [id_ for id_, _ in await ranks(40, None, 10, default)]
    assert [i[0] for i in ids[:18]] == ["h"] * 6 + ["t"] * 12 and ids[18][0] == "b"


async def add_one_widget_section(pool) -> None:
    """One public section, "Embed the widget", with its fake embedding: the legs' tests' corpus."""
    async with pool.acquire() as conn:
        await add(conn, "a.mdx#x", "Embed the widget", title="Widget", heading="Embed",
                  embedding=fake_vector("Embed the widget"), model="gemini-embedding-001@768")
        await refresh(conn)


async def test_a_pool_of_one_connection_serves_both_legs_in_turn(database_url, pool, fake_gemini) -> None:
    """The keyword leg runs in the retrieval's own task and hands its connection's release to the
    loop (release_later): with a single connection the vector leg waits for it, as before, rather
    than for a release that would only run after the vector leg (no deadlock, same answer)."""
    import asyncio

    from app.db.pool import create_pool

    await add_one_widget_section(pool)
    settings = get_settings()
    expected = await Retriever(pool, settings, build_retriever(pool, settings).embedder).retrieve("embed the widget")
    single = await create_pool(database_url, min_size=1, max_size=1)
    try:
        retriever = Retriever(single, settings, build_retriever(single, settings).embedder)
        for _ in range(3):
            found = await asyncio.wait_for(retriever.retrieve("embed the widget"), 5)
            assert found.degraded is None and not found.errors
            assert found.to_dict(explain=False) == expected.to_dict(explain=False)
    finally:
        await single.close()


async def test_a_cancelled_retrieval_cancels_both_legs_statements(pool, fake_gemini) -> None:
    """The keyword leg runs in the retrieval's task and the vector leg in a task of its own: a
    retrieval cancelled while both statements wait (the narrow table locked) takes both with it,
    and their connections answer the next retrieval."""
    import asyncio

    await add_one_widget_section(pool)
    settings = get_settings().model_copy(update={"leg_timeout_seconds": 60})
    retriever = Retriever(pool, settings, build_retriever(pool, settings).embedder)
    before = await retriever.retrieve("embed the widget")
    # Read outside the blocker's transaction, whose view of pg_stat_activity is a snapshot.
    waiting = ("select count(*) from pg_stat_activity where wait_event_type = 'Lock'"
               " and query like '%docs_section%'")
    async with pool.acquire() as blocker, blocker.transaction():
        await blocker.execute("lock table public.docs_section_fts in access exclusive mode")
        task = asyncio.create_task(retriever.retrieve("a widget question"))
        async with asyncio.timeout(10):
            while await pool.fetchval(waiting) < 2:  # both legs' statements wait on the lock
                await asyncio.sleep(0.02)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        async with asyncio.timeout(10):
            while await pool.fetchval(waiting) > 0:  # neither is left waiting for the lock
                await asyncio.sleep(0.02)
    after = await asyncio.wait_for(retriever.retrieve("embed the widget"), 5)
    assert after.to_dict(explain=False) == before.to_dict(explain=False) and not after.errors


async def test_both_legs_time_out_and_their_connections_serve_the_next_question(pool, fake_gemini) -> None:
    """The legs' timeouts (asyncio.timeout inside each leg) fire, and the connections they release
    without asyncpg's reset query (acquire_stateless) after a cancelled statement answer the next
    retrieval as a fresh pool would."""
    import asyncio

    await add_one_widget_section(pool)
    settings = get_settings().model_copy(update={"leg_timeout_seconds": 0.3})
    retriever = Retriever(pool, settings, build_retriever(pool, settings).embedder)
    before = await retriever.retrieve("embed the widget")
    assert before.degraded is None and before.pages[0].title == "Widget"
    async with pool.acquire() as blocker, blocker.transaction():
        # Both legs read the narrow full-text table (the vector leg for its hits' coverage).
        await blocker.execute("lock table public.docs_section_fts in access exclusive mode")
        with pytest.raises(RetrievalError, match=r"keyword: timed out; vector: timed out"):
            await asyncio.wait_for(retriever.retrieve("a widget question"), 5)
    for _ in range(3):  # more than the connections the timed-out legs held
        after = await retriever.retrieve("embed the widget")
        assert after.to_dict(explain=False) == before.to_dict(explain=False) and not after.errors
