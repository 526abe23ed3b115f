"""Reciprocal rank fusion: score(chunk) = Σ over legs of 1 / (k + rank in that leg)."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.search.legs import Hit


@dataclass
class FusedHit:
    hit: Hit
    score: float
    ranks: dict[str, int] = field(default_factory=dict)  # leg name → 1-based rank


def reciprocal_rank_fusion(legs: dict[str, list[Hit]], k: int = 60) -> list[FusedHit]:
    fused: dict[str, FusedHit] = {}
    for leg, hits in legs.items():
        for rank, hit in enumerate(hits, start=1):
            entry = fused.setdefault(hit.id, FusedHit(hit, 0.0))
            entry.score += 1.0 / (k + rank)
            entry.ranks[leg] = rank
    # Ties (same score) keep a stable order: the better best-rank first, then the id.
    return sorted(fused.values(), key=lambda f: (-f.score, min(f.ranks.values()), f.hit.id))
