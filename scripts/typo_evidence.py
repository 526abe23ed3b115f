"""Session 35 (design/judgment.md): which words the typo step takes for typos, and candidate rules
that would call some of them unknown names instead ("bazel" one edit from "babel", "async" from
"sync"). Reads probe_judgment.py's rows (their `unknown` record: word, position, stem, typo, the
stems one edit away with the sections holding each); no turn is re-run. A rule only changes the
answer check's verdict: a word it calls no typo is an unknown word, so a question the chat answers
without a hedge becomes "partly" when that word is specific (is_specific_word) and not read past as
context. Tune: the eval sets' lines (files named *-docs.jsonl); confirm: the shared dev sets and the
tests/data lines (the rest).

    python scripts/typo_evidence.py OUT/B-*.probe.jsonl [-v]
    # every word of the files' questions the typo step takes for a typo on one synced home
    # (DOCSCHAT_HOME and the docs settings as `docschat eval` reads them), with each rule's call:
    python scripts/typo_evidence.py words eval/*.jsonl tests/data/*.jsonl ../shared/eval/*-dev.jsonl
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Callable
from pathlib import Path

from app.judge.question_terms import error_context, is_specific_word, only_in_context

_ROWS = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]
_PLACE = {ch: (r, c) for r, row in enumerate(_ROWS) for c, ch in enumerate(row)}


def adjacent(a: str, b: str) -> bool:
    """Neighbouring keys on a QWERTY keyboard (same row ±1, or the row above/below, offset ±1)."""
    if a not in _PLACE or b not in _PLACE:
        return False
    (ra, ca), (rb, cb) = _PLACE[a], _PLACE[b]
    return (ra == rb and abs(ca - cb) == 1) or (abs(ra - rb) == 1 and cb - ca in (-1, 0, 1))


def edit(word: str, known: str) -> tuple[str, int, bool]:
    """(kind, position, keyboard-plausible) of the one edit taking `known` to `word`: "sub", "swap",
    "ins" (the asker typed a letter more), "del" (a letter less). Plausible: a swap, a doubled or
    undoubled letter, a neighbouring key struck for or beside the right one, any omission."""
    i = 0
    while i < min(len(word), len(known)) and word[i] == known[i]:
        i += 1
    if len(word) == len(known):
        if word[i + 1:] == known[i + 1:]:
            doubled = word[i] == word[i - 1] if i > 0 else False
            return "sub", i, doubled or adjacent(word[i], known[i])
        return "swap", i, True
    if len(word) > len(known):
        extra = word[i]
        around = [x for x in (word[i - 1] if i > 0 else "", word[i + 1] if i + 1 < len(word) else "") if x]
        return "ins", i, any(extra == x or adjacent(extra, x) for x in around)
    return "del", i, True


Typo = tuple[str, int, str, bool, list[list]]  # word, n, lexeme, typo, neighbours [[stem, ndoc]]
Rule = Callable[[Typo, dict], bool]


def _first_edit(u: Typo, row: dict) -> bool:
    """Every stem one edit away differs in the first letter ("async" / "sync")."""
    return all(edit(u[2], c)[1] == 0 for c, _ in u[4])


def _implausible(u: Typo, row: dict) -> bool:
    return not any(edit(u[2], c)[2] for c, _ in u[4])


def _rare(k: int) -> Rule:
    return lambda u, row: max(n for _, n in u[4]) <= k


def _unquoted(u: Typo, row: dict) -> bool:
    """The stem the keyword leg searched instead (the most-held neighbour) is on no quoted line."""
    return not any(u[4][0][0] in line for line in row.get("summary_stems", []))


CANDIDATES: dict[str, Rule] = {
    "edit at the first letter": _first_edit,
    "no keyboard-plausible edit": _implausible,
    "first letter or implausible": lambda u, r: _first_edit(u, r) or _implausible(u, r),
    "best neighbour in <= 1 section": _rare(1),
    "best neighbour in <= 3 sections": _rare(3),
    "best neighbour in <= 10 sections": _rare(10),
    "correction on no quoted line": _unquoted,
    "(first letter or implausible) and correction unquoted":
        lambda u, r: (_first_edit(u, r) or _implausible(u, r)) and _unquoted(u, r),
}


def hedges(row: dict, rule: Rule) -> list[str]:
    """The words a rule turns from typos into specific unknown words the check would report."""
    question = row["question"]
    context = error_context(question)
    return [u[0] for u in row.get("unknown", []) if u[3] and len(u[0]) >= 3 and rule(u, row)
            and is_specific_word(u[0], first=u[1] == 1) and not only_in_context(u[0], question, context)]


async def typo_words(paths: list[Path]) -> None:
    from probe_judgment import NEIGHBOURS_SQL

    from app.cli.base import database_url, open_read_pool
    from app.config import get_settings
    from app.judge.answer_check import MIN_TYPO_LENGTH, UNKNOWN_SQL
    from app.text import storable_text

    questions = sorted({q for p in paths for x in p.read_text().splitlines() if x.strip()
                        if isinstance(q := json.loads(x).get("question"), str)})
    audiences = get_settings().anonymous_audiences
    async with await open_read_pool(database_url()) as pool, pool.acquire() as conn:
        for question in questions:
            for r in await conn.fetch(UNKNOWN_SQL, storable_text(question), audiences, MIN_TYPO_LENGTH):
                if not r["typo"]:
                    continue
                near = [[x["lexeme"], int(x["ndoc"])] for x in await conn.fetch(NEIGHBOURS_SQL, r["lexeme"], audiences)]
                u = (r["word"], int(r["n"]), r["lexeme"], True, near)
                print(json.dumps({"word": r["word"], "lexeme": r["lexeme"], "near": near[:3],
                                  "specific": is_specific_word(r["word"], first=r["n"] == 1),
                                  "rules": [n for n, rule in CANDIDATES.items() if rule(u, {"summary_stems": []})],
                                  "question": question}, ensure_ascii=False), flush=True)


def main() -> None:
    if sys.argv[1:2] == ["words"]:
        asyncio.run(typo_words([Path(p) for p in sys.argv[2:]]))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("rows", nargs="+", type=Path)
    parser.add_argument("-v", action="store_true")
    args = parser.parse_args()
    rows = [json.loads(x) for p in args.rows for x in p.read_text().splitlines() if x.strip()]
    for i, r in enumerate(rows):
        r["id"] = r["id"] or f"{r['file'].split('.')[0]}#{i}"
        r["group"] = "tune" if r["file"].endswith("-docs.jsonl") else "confirm"
    typos = [(r, u) for r in rows for u in r.get("unknown", []) if u[3]]
    print(f"{len(rows)} lines, {len(typos)} words taken for typos")
    if args.v:
        for r, u in typos:
            kinds = [f"{c}:{n}:{'/'.join(map(str, edit(u[2], c)))}" for c, n in u[4][:3]]
            verdict = r.get("explanation", {}).get("answer_check", {}).get("verdict")
            print(f"  {r['group']:7} {r['id']:28} {r['kind']:10} {r['outcome']:8} {verdict!s:10} "
                  f"{u[0]:16} {' '.join(kinds)}  | {r['question'][:70]}")
    for name, rule in CANDIDATES.items():
        out = []
        for group in ("tune", "confirm"):
            caught, hedged, who = 0, 0, []
            for r in rows:
                if r["group"] != group or r["outcome"] != "answered":
                    continue
                words = hedges(r, rule)
                if not words:
                    continue
                if r["kind"] == "indomain":
                    caught += 1
                elif r["kind"] == "answerable":
                    hedged += 1
                who.append(f"{r['id']}({r['kind'][:3]}:{','.join(words)})")
            out.append(f"{group} +{caught} in-domain, +{hedged} answerable: {' '.join(who)}")
        moved = [r for r in rows if any(u[3] and rule(u, r) for u in r.get("unknown", []))]
        by_group = {g: sum(1 for r in moved if r["group"] == g) for g in ("tune", "confirm")}
        out.append(f"keyword leg, if applied there (the word dropped, not replaced): {len(moved)} lines' query "
                   f"changes (tune {by_group['tune']}, confirm {by_group['confirm']}, of them shared dev "
                   f"{sum(1 for r in moved if r['file'].endswith('-dev.jsonl'))})")
        print(f"{name}\n  " + "\n  ".join(out))


if __name__ == "__main__":
    main()
