"""Fusion of the legs' rankings into one: each leg weighs in by how informative it is for this question.

Plain reciprocal rank fusion gives every leg the same say on every question, so a leg that has no
idea (its scores are flat: ten near-equal hits) drags a confident leg's clear winner down. Here each
leg hands out two units of evidence over its hits:

- one by score shape: in proportion to how far each hit's score stands above the leg's floor (its
  last hit's score). A leg whose best hit stands far above the rest gives it most of that unit; a
  flat leg spreads it thin, so it barely moves the fused order;
- one by rank: reciprocal rank (1 / (k + rank)) scaled to sum to one, which keeps a hit that both
  legs rank well above one that a single leg likes.

Scores are comparable within a leg only, never across legs: full-text ranks (higher is better) and
cosine distances (lower is better) are turned into "above the floor" amounts separately.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from app.search.hits import Hit


@dataclass
class FusedHit:
    hit: Hit
    score: float
    ranks: dict[str, int] = field(default_factory=dict)  # leg name → 1-based rank
    weight: float = 1.0  # source weight × path boosts, already applied to `score`


def _goodness(leg: str, hit: Hit) -> float:
    """Higher is better for every leg: the vector leg's score is a distance."""
    return -hit.score if leg == "vector" else hit.score


def leg_evidence(leg: str, hits: list[Hit], k: int = 60) -> list[float]:
    """The evidence a leg gives each of its hits (sums to 2 when the leg has any hit)."""
    if not hits:
        return []
    goodness = [_goodness(leg, h) for h in hits]
    floor = min(goodness)
    above = [g - floor for g in goodness]
    total_above = sum(above)
    reciprocal = [1.0 / (k + rank) for rank in range(1, len(hits) + 1)]
    total_reciprocal = sum(reciprocal)
    # A leg whose hits all score the same has no shape: its score unit is spread evenly.
    shape = [a / total_above for a in above] if total_above > 0 else [1.0 / len(hits)] * len(hits)
    return [s + r / total_reciprocal for s, r in zip(shape, reciprocal, strict=True)]


def _fuse(legs: dict[str, list[Hit]], scores: Callable[[str, list[Hit]], list[float]]) -> list[FusedHit]:
    """Each section once, scored by the sum over legs of what `scores` gives its best part in that
    leg; best first. The parts of a long section share its link: one part matching a leg well is
    the section matching it (as a page's best passage speaks for the page), and two legs that each
    found a different part of it agree. The hit shown is the part with the most evidence."""
    fused: dict[tuple[str, str], FusedHit] = {}
    shown: dict[tuple[str, str], float] = {}  # the evidence of the part each entry shows
    for leg, hits in legs.items():
        seen: set[tuple[str, str]] = set()
        for rank, (hit, score) in enumerate(zip(hits, scores(leg, hits), strict=True), start=1):
            key = (hit.source, hit.href)
            if key in seen:  # a lower part of a section this leg already scored (hits are best first)
                continue
            seen.add(key)
            entry = fused.setdefault(key, FusedHit(hit, 0.0))
            entry.score += score
            entry.ranks[leg] = rank
            if score > shown.get(key, float("-inf")):
                entry.hit, shown[key] = hit, score
    return best_first(fused.values())


def best_first(fused: Iterable[FusedHit]) -> list[FusedHit]:
    # Ties (same score) keep a stable order: the better best-rank first, then the id.
    return sorted(fused, key=lambda f: (-f.score, min(f.ranks.values()), f.hit.id))


def evidence_fusion(legs: dict[str, list[Hit]], k: int = 60) -> list[FusedHit]:
    """The legs' hits, each once, by the sum of the evidence the legs give it; best first."""
    return _fuse(legs, lambda leg, hits: leg_evidence(leg, hits, k))


def reciprocal_rank_fusion(legs: dict[str, list[Hit]], k: int = 60) -> list[FusedHit]:
    """Plain RRF, score(chunk) = Σ over legs of 1 / (k + rank): the baseline, kept to compare with."""
    return _fuse(legs, lambda leg, hits: [1.0 / (k + rank) for rank in range(1, len(hits) + 1)])


def apply_weights(fused: list[FusedHit], weight_of: Callable[[str, str], float]) -> list[FusedHit]:
    """Multiply each fused score by its page's weight (source × path boosts) and sort again."""
    for item in fused:
        item.weight = weight_of(item.hit.source, item.hit.page)
        item.score *= item.weight
    return best_first(fused)
