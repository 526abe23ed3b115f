"""Session 36 (design/judgment.md): candidate "partly" rules for in-domain questions the docs do not
answer, each counted on a tune half and a confirm half of the sets, named before any figure. No turn
is re-run: a rule only turns an answer given without a hedge into "partly" (the offline check never
refuses), so it is read off what the chat answered and what it saw.

Inputs: `docschat eval --answers --json` per site (EVAL-<set>.json), `bench_eval.py answers --dump`
per shared corpus (EVAL-<corpus>.jsonl: a summary line, then one line per question), and
probe_judgment.py's rows (PROBE-<set>.probe.jsonl: the question's terms with their section counts,
the words no visible section holds, the legs' best hits, the Summary's stems per line), which also
cover the tests/data lines and the shared dev sets (ray's real users).

    python scripts/partly_evidence.py --eval '/tmp/h/s33/F35c-*.json*' --probe '/tmp/judge35-out/B-*.probe.jsonl'
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.judge import answer_check as ac

# Sorted set names, odd places tune and even places confirm (written down before any figure).
TUNE = frozenset("claude-docs dify httpx lxd mintlify-docs openlit pnpm starlight trig typer vitest".split())
CONFIRM = frozenset("demo flask jest mem0 openhands pipecat ray-docs structlog typeorm unkey".split())
KINDS = ("indomain", "answerable")
_HOW_DEEP = re.compile(r"\bhow deep\b", re.IGNORECASE)
Row = dict[str, Any]


def wilson(k: int, n: int, z: float = 1.96) -> str:
    if n == 0:
        return "0/0"
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return f"{k}/{n} = {p:.2f} [{max(0.0, centre - half):.2f}, {min(1.0, centre + half):.2f}]"


def _set_name(path: str, prefix_len: int) -> str:
    name = Path(path).name[prefix_len:]
    return name.split(".")[0]


def eval_rows(pattern: str) -> list[Row]:
    rows: list[Row] = []
    for path in sorted(glob.glob(pattern)):
        name = _set_name(path, Path(path).name.index("-") + 1)
        if name.endswith("-sync"):
            continue
        if path.endswith(".jsonl"):
            lines = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
            questions = [q for q in lines[1:] if "id" in q]
        else:
            questions = json.loads(Path(path).read_text(encoding="utf-8"))["per_question"]
        rows += [{**q, "set": name} for q in questions]
    return rows


def probe_rows(pattern: str, answered: dict[tuple[str, str], Row]) -> list[Row]:
    """The probe's rows; an eval line takes the outcome of the eval run (the probe's own Summary
    and stems are kept: they belong together)."""
    rows: list[Row] = []
    for path in sorted(glob.glob(pattern)):
        name = _set_name(path, Path(path).name.index("-") + 1)
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            row["set"] = name
            current = answered.get((name, row.get("id") or ""))
            if current is not None:
                row["outcome"] = current["outcome"]
            rows.append(row)
    return rows


def numbers_quoted(question: str, summary: str) -> bool:
    """A sentence of the quoted answer (no heading line) holds a number the question does not, or
    "unlimited"/"no limit" (limit_stated without the limit word)."""
    asked = set(ac._STATED_NUMBER.findall(question))
    text = ac._ITEM_NUMBER.sub(r"\1-", ac._LINK_TARGET.sub("]", ac._CITATION.sub("", summary)))
    for sentence in ac._SENTENCE_END.split(text):
        if not sentence or ac._BOLD_LINE.fullmatch(sentence):
            continue
        if ac._NO_LIMIT.search(sentence) or any(x not in asked for x in ac._STATED_NUMBER.findall(sentence)):
            return True
    return False


def quoted_count_stated(row: Row, need_words: int = ac.COUNT_EVIDENCE_WORDS) -> bool:
    """count_stated read on the quoted answer's lines instead of the sections: a line with a number
    the question does not hold whose window (line ±1, under its heading line) holds the counted words."""
    counted = ac.counted_words([(lexeme, ndoc, idf, False) for lexeme, ndoc, idf in row["terms"]])
    need = min(need_words, len(counted))
    if need == 0:
        return True
    asked = set(ac._STATED_NUMBER.findall(row["question"]))
    lines = [x for x in (row.get("summary") or "").split("\n") if x.strip()]
    body: list[tuple[str | None, set[str]]] = []
    head: set[str] = set()
    for line, stems in zip(lines, row["summary_stems"], strict=True):
        if ac._BOLD_LINE.fullmatch(line):
            head = set(stems)
            body.append((None, head))
            continue
        plain = ac._ITEM_NUMBER.sub(r"\1-", ac._LINK_TARGET.sub("]", ac._CITATION.sub("", line)))
        body.append((plain, set(stems) | head))
    for n, (text, _) in enumerate(body):
        if text is None or not (ac._NO_LIMIT.search(text)
                                or any(x not in asked for x in ac._STATED_NUMBER.findall(text))):
            continue
        held = set().union(*(body[m][1] for m in range(max(0, n - 1), min(len(body), n + 2))))
        if sum(1 for word in counted if word in held) >= need:
            return True
    return False


def unknown_words(row: Row, shortest: int) -> list[str]:
    return [u[0] for u in row.get("unknown") or [] if not u[3] and len(u[0]) >= shortest and not u[0].isdigit()]


def legs_disjoint(row: Row) -> bool:
    legs = row.get("legs") or {}
    keyword = {h[0] for h in legs.get("keyword", [])[:3]}
    vector = {h[0] for h in legs.get("vector", [])[:3]}
    return bool(keyword and vector) and not keyword & vector


TEXT_RULES: dict[str, Callable[[Row], bool]] = {  # on the eval runs' rows (every set)
    "'how deep' read as a limit question": lambda r: bool(_HOW_DEEP.search(r["question"]))
    and not ac.limit_stated(r["question"], r["summary"] or ""),
    "a count asked, no number quoted": lambda r: ac.asks_a_count(r["question"])
    and not numbers_quoted(r["question"], r["summary"] or ""),
    "a count, time or depth asked, no number quoted": lambda r: (
        bool(ac._ASKS_A_COUNT.search(r["question"]) or ac._ASKS_A_TIME_OR_VERSION.search(r["question"])
             or _HOW_DEEP.search(r["question"]))
        and not numbers_quoted(r["question"], r["summary"] or "")),
}
PROBE_RULES: dict[str, Callable[[Row], bool]] = {  # on the probe's rows (no jest, no flask)
    "a count asked, no quoted line states one beside 2 counted words": lambda r: ac.asks_a_count(r["question"])
    and not quoted_count_stated(r),
    "... beside 1 counted word": lambda r: ac.asks_a_count(r["question"]) and not quoted_count_stated(r, 1),
    "a word no visible section holds, no typo, 3+ letters": lambda r: bool(unknown_words(r, 3)),
    "... 5+ letters": lambda r: bool(unknown_words(r, 5)),
    "confidence < 0.55": lambda r: r["confidence"] < 0.55,
    "confidence < 0.60": lambda r: r["confidence"] < 0.60,
    "confidence < 0.65": lambda r: r["confidence"] < 0.65,
    "legs' best three share none": legs_disjoint,
    "legs' best three share none, confidence < 0.60": lambda r: legs_disjoint(r) and r["confidence"] < 0.60,
}


def count(rows: list[Row], rules: dict[str, Callable[[Row], bool]], verbose: bool) -> None:
    for name, rule in rules.items():
        cells = []
        for side, sets in (("tune", TUNE), ("confirm", CONFIRM)):
            hit = {k: [r for r in rows if r["set"] in sets and r["kind"] == k and r["outcome"] == "answered" and rule(r)]
                   for k in KINDS}
            base = {k: sum(1 for r in rows if r["set"] in sets and r["kind"] == k and r["outcome"] == "answered")
                    for k in KINDS}
            cells.append(f"{side}: in-domain +{len(hit['indomain'])}/{base['indomain']}, "
                         f"answerable +{len(hit['answerable'])}/{base['answerable']}")
            if verbose:
                cells.append("\n    " + " ".join(str(r.get("id")) for k in KINDS for r in hit[k]))
        print(f"{name}: " + " | ".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--eval", required=True, help="glob of the eval runs' outputs")
    parser.add_argument("--probe", required=True, help="glob of probe_judgment.py's rows")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    rows = eval_rows(args.eval)
    for side, sets in (("tune", TUNE), ("confirm", CONFIRM)):
        part = [r for r in rows if r["set"] in sets]
        indomain = [r for r in part if r["kind"] == "indomain"]
        answerable = [r for r in part if r["kind"] == "answerable"]
        print(f"{side}: in-domain refused or partly {wilson(sum(r['outcome'] != 'answered' for r in indomain), len(indomain))}; "
              f"answerable partly {wilson(sum(r['outcome'] == 'partly' for r in answerable), len(answerable))}, "
              f"refused {wilson(sum(r['outcome'] == 'refused' for r in answerable), len(answerable))}")
    count(rows, TEXT_RULES, args.verbose)
    count(probe_rows(args.probe, {(r["set"], r["id"]): r for r in rows}), PROBE_RULES, args.verbose)


if __name__ == "__main__":
    main()
