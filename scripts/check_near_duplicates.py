"""How well the near-duplicate cosine (app/insights/record.py) groups questions, with the packaged model.

Two figures per set and threshold: the share of hand-written rewordings (tests/data/near_duplicates.jsonl:
a dev-set question and how a reader might ask it again) at or above the threshold (they should be
grouped), and the share of pairs of *different* dev-set questions at or above it (they should not).
The ray pairs were looked at while the default was written down; the claude pairs confirm it.

    SHARED_DIR=/work/shared python scripts/check_near_duplicates.py
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
from pathlib import Path

from _corpus import ROOT

from app.embeddings.local import LocalEmbeddingProvider
from app.insights.record import near_duplicate_cosine

SETS = {"ray": "ray-docs-dev.jsonl", "claude": "claude-docs-dev.jsonl"}


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))  # normalized vectors


async def main() -> None:
    shared = Path(os.environ.get("SHARED_DIR", ROOT.parent / "shared"))
    provider = LocalEmbeddingProvider()
    default = near_duplicate_cosine(provider.model)
    pairs = [json.loads(line) for line in (ROOT / "tests/data/near_duplicates.jsonl").read_text().splitlines() if line]
    for name, file in SETS.items():
        questions = [json.loads(line)["question"] for line in (shared / "eval" / file).read_text().splitlines() if line]
        mine = [p for p in pairs if p["set"] == name]
        vectors = await provider.embed_documents([p["a"] for p in mine] + [p["b"] for p in mine] + questions)
        same = [cosine(vectors[i], vectors[i + len(mine)]) for i in range(len(mine))]
        distinct = [cosine(a, b) for a, b in itertools.combinations(vectors[2 * len(mine):], 2)]
        for threshold in (0.70, 0.75, default, 0.85, 0.90):
            print(json.dumps({
                "set": name, "threshold": round(threshold, 2), "default": threshold == default,
                "rewordings_grouped": f"{sum(c >= threshold for c in same)}/{len(same)}",
                "distinct_pairs_grouped": f"{sum(c >= threshold for c in distinct)}/{len(distinct)}",
            }))
        print(json.dumps({"set": name, "rewording_cosines": sorted(round(c, 3) for c in same),
                          "distinct_max": round(max(distinct), 3)}))


if __name__ == "__main__":
    asyncio.run(main())
