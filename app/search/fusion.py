"""Reciprocal rank fusion: score(chunk) = Σ over legs of 1 / (k + rank in that leg)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from app.search.legs import Hit


@dataclass
class FusedHit:
    hit: Hit
    score: float
    ranks: dict[str, int] = field(default_factory=dict)  # leg name → 1-based rank
    weight: float = 1.0  # source weight × path boosts, already applied to `score`


def reciprocal_rank_fusion(legs: dict[str, list[Hit]], k: int = 60) -> list[FusedHit]:
    fused: dict[str, FusedHit] = {}
    for leg, hits in legs.items():
        for rank, hit in enumerate(hits, start=1):
            entry = fused.setdefault(hit.id, FusedHit(hit, 0.0))
            entry.score += 1.0 / (k + rank)
            entry.ranks[leg] = rank
    # Ties (same score) keep a stable order: the better best-rank first, then the id.
    return sorted(fused.values(), key=lambda f: (-f.score, min(f.ranks.values()), f.hit.id))


def apply_weights(fused: list[FusedHit], weight_of: Callable[[str, str], float]) -> list[FusedHit]:
    """Multiply each fused score by its page's weight (source × path boosts) and sort again."""
    for item in fused:
        item.weight = weight_of(item.hit.source, item.hit.page)
        item.score *= item.weight
    return sorted(fused, key=lambda f: (-f.score, min(f.ranks.values()), f.hit.id))
