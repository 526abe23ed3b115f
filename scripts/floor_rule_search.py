"""Rules that would refuse more off-topic questions than the answer floor, searched on a tune half
and held against a confirm half (session 37, design/judgment.md). Reads the JSON lines of
scripts/floor_baseline_evidence.py, one file per answer set (DIR/<set>.jsonl). Nothing is changed.

    python scripts/floor_rule_search.py DIR --tune demo,flask,jest,typer,pipecat

Tune rows: the lines of eval/offtopic-shared-words.jsonl (ids `osw-…`) on the tune sets, and the
tune sets' answerable lines. Confirm rows: every other off-topic line (the new set's confirm half
and each set's eval off-topic lines) and every answerable line of every set, whose new refusals
are false refusals. A rule refuses a line the floor answered when its confidence is under a band
and one or two pieces of evidence pass a threshold; thresholds are read on the tune rows only.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

Row = dict[str, Any]


def load(path: Path, name: str) -> list[Row]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        top = row.get("top") or []
        row["set"] = name
        row["c1"] = top[0][0] if top else None
        row["c5"] = top[4][0] if len(top) > 4 else None
        row["c10"] = top[9][0] if len(top) > 9 else None
        row["gap10"] = row["c1"] - row["c10"] if row["c10"] is not None else None
        row["pages10"] = len({page for _, page in top})
        explanation = row.get("explanation") or {}
        row["scos"] = explanation.get("scaled_cosine")
        row["scov"] = explanation.get("specific_coverage")
        rows.append(row)
    return rows


def _minus(a: str, b: str) -> Callable[[Row], float | None]:
    return lambda r: None if r.get(a) is None or r.get(b) is None else r[a] - r[b]


EVIDENCE: dict[str, Callable[[Row], float | None]] = {
    "mean_cosine": lambda r: r.get("mean_cosine"),  # the question's mean cosine over every section
    "best_z": lambda r: r.get("best_z"),  # the best cosine's z-score among them
    "c1-mean": _minus("c1", "mean_cosine"),  # how far the best section stands above that baseline
    "c10-mean": _minus("c10", "mean_cosine"),
    "c5": lambda r: r["c5"], "c10": lambda r: r["c10"], "gap10": lambda r: r["gap10"],
    "pages10": lambda r: r["pages10"],  # distinct pages among the ten best sections
    "scos": lambda r: r["scos"], "scov": lambda r: r["scov"],  # the confidence's own parts
    "partly": lambda r: 1.0 if r["outcome"] == "partly" else 0.0,  # the answer check's names
}
BANDS = (0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 1.01)
Rule = tuple[float, tuple[tuple[str, str, float], ...]]


def refuses(rule: Rule, row: Row) -> bool:
    band, conditions = rule
    if row["outcome"] == "refused" or row["confidence"] is None or row["confidence"] >= band:
        return False
    for name, op, threshold in conditions:
        value = EVIDENCE[name](row)
        if value is None or not (value <= threshold if op == "<=" else value >= threshold):
            return False
    return True


def score(rule: Rule, rows: Iterable[Row]) -> tuple[int, int, int, int]:
    """(off-topic newly refused, off-topic, answerable newly refused, answerable)."""
    caught = off = refused = answerable = 0
    for row in rows:
        if row["kind"] == "offtopic":
            off += 1
            caught += refuses(rule, row)
        elif row["kind"] == "answerable":
            answerable += 1
            refused += refuses(rule, row)
    return caught, off, refused, answerable


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if not n:
        return (0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (round(c - h, 2), round(c + h, 2))


def search(tune: list[Row], pairs: bool) -> list[tuple[int, Rule]]:
    """Every rule refusing no tune answerable line and at least one tune off-topic line, its edges on
    the tune off-topic lines' values."""
    names = list(EVIDENCE)
    edges = {n: sorted({v for r in tune if r["kind"] == "offtopic" and (v := EVIDENCE[n](r)) is not None}) for n in names}
    found = []
    combos: list[tuple[str, ...]] = [(n,) for n in names]
    if pairs:
        combos += [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    for band in BANDS:
        for combo in combos:
            ops_list = [(o,) for o in ("<=", ">=")] if len(combo) == 1 else [(a, b) for a in ("<=", ">=") for b in ("<=", ">=")]
            for ops in ops_list:
                grids = [[(n, o, t) for t in edges[n]] for n, o in zip(combo, ops, strict=True)]
                conditions_list = [(c,) for c in grids[0]] if len(grids) == 1 else [(a, b) for a in grids[0] for b in grids[1]]
                for conditions in conditions_list:
                    rule: Rule = (band, conditions)
                    caught, _, refused, _ = score(rule, tune)
                    if caught and not refused:
                        found.append((caught, rule))
    found.sort(key=lambda x: -x[0])
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("dir", type=Path)
    parser.add_argument("--tune", default="demo,flask,jest,typer,pipecat")
    parser.add_argument("--pairs", action="store_true", help="two pieces of evidence at once")
    args = parser.parse_args()
    tune_sets = set(args.tune.split(","))
    sets = {p.stem: load(p, p.stem) for p in sorted(args.dir.glob("*.jsonl"))}
    new = [r for rows in sets.values() for r in rows if str(r.get("id") or "").startswith("osw-")]
    tune = [r for s in tune_sets for r in sets[s] if r in new or r["kind"] == "answerable"]
    confirm = [r for s, rows in sets.items() for r in rows
               if r["kind"] == "answerable" or (r["kind"] == "offtopic" and not (s in tune_sets and r in new))]
    real = [r for r in sets.get("ray-docs", []) if r.get("file") == "ray-docs-dev.jsonl"]

    print("at the floor (refused / lines, Wilson 95%):")
    for name, rows in sets.items():
        n_new = [r for r in rows if r in new]
        old = [r for r in rows if r["kind"] == "offtopic" and r not in new]
        ans = [r for r in rows if r["kind"] == "answerable"]
        k1, k2, k3 = (sum(r["outcome"] == "refused" for r in x) for x in (n_new, old, ans))
        half = "tune" if name in tune_sets else "confirm"
        print(f"  {name:14} new set ({half}) {k1}/{len(n_new)}  eval off-topic {k2}/{len(old)}  answerable refused {k3}/{len(ans)}")
    for label, rows in (("new set, tune", [r for r in new if r["set"] in tune_sets]),
                        ("new set, confirm", [r for r in new if r["set"] not in tune_sets]),
                        ("eval off-topic", [r for r in confirm if r["kind"] == "offtopic" and r not in new]),
                        ("answerable", [r for r in confirm if r["kind"] == "answerable"]), ("ray real users", real)):
        k = sum(r["outcome"] == "refused" for r in rows)
        print(f"  pooled {label:18} {k}/{len(rows)} = {k / max(1, len(rows)):.2f} {wilson(k, len(rows))}")

    print("a higher floor (refused: off-topic new tune, new confirm, eval off-topic; answerable; ray real):")
    for floor in (0.45, 0.5, 0.55, 0.6, 0.65, 0.7):
        def under(rows: list[Row], f: float = floor) -> int:
            return sum(r["outcome"] == "refused" or (r["confidence"] or 0) < f for r in rows)
        print(f"  {floor:.2f}: {under([r for r in new if r['set'] in tune_sets])}, {under([r for r in new if r['set'] not in tune_sets])},"
              f" {under([r for r in confirm if r['kind'] == 'offtopic' and r not in new])};"
              f" {under([r for r in confirm if r['kind'] == 'answerable'])}; {under(real)}")

    found = search(tune, args.pairs)
    holding = [(c, rule) for c, rule in found if score(rule, confirm)[2] == 0 and score(rule, real)[2] == 0 and score(rule, confirm)[0]]
    print(f"rules refusing no tune answerable line: {len(found)}; of them holding on confirm: {len(holding)}")
    seen: set[tuple[tuple[str, str], ...]] = set()
    for caught, rule in found:
        key = tuple((n, o) for n, o, _ in rule[1])
        if key in seen:
            continue
        seen.add(key)
        c = score(rule, confirm)
        print(f"  {rule}: tune +{caught}; confirm +{c[0]}/{c[1]} off-topic, +{c[2]}/{c[3]} answerable refused,"
              f" ray real +{score(rule, real)[2]}")


if __name__ == "__main__":
    main()
