"""Word evidence on existence-shaped questions ("Does X support Y?", "Is there a dark mode?", "Can
I …?"), read from scripts/probe_judgment.py's rows: for each candidate rule, how many in-domain
questions the shipped chat answers without a hedge it would make "partly", and how many answerable
ones. Session 34 (design/judgment.md); no rule of these was adopted, this records how they were
measured.

    # probe rows of the seventeen eval sets (eval/*-docs.jsonl) tune; those of the shared dev sets and
    # tests/data (answerable-*, unanswerable-indomain-*) confirm (--swap: the other way round)
    python scripts/existence_evidence.py OUT/*.probe.jsonl
    python scripts/existence_evidence.py --shapes eval/*-docs.jsonl tests/data/answerable-*.jsonl …

The shape is read from the grammar, not from the misses: a clause opening with an auxiliary verb
(a yes/no question), not a wh-question's inversion ("how can I", "what does it").
"""

from __future__ import annotations

import argparse
import json
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

AUXILIARY = r"(?:does|do|did|is|are|was|can|could|will|would|should|has|have)"
CLAUSE_START = r"(?:^|[.?!:;,]\s*|\b(?:and|or|so|but|also|then)\s+)"
FILLER = r"(?:(?:hi|hey|hello|ok|okay|so|also|quick question|question|btw|pls|please)[,:!.]?\s+)*"
# "Could not load …" (an error pasted) states, it does not ask.
YES_NO = re.compile(CLAUSE_START + FILLER + AUXILIARY + r"\s+(?!not\b)\w", re.IGNORECASE)
WH_BEFORE = re.compile(r"\b(?:how|what|which|where|when|why|who|whom|whose)\s+(?:\w+\s+){0,3}$", re.IGNORECASE)
# A term most sections hold is the docs' subject ("ray", "vitest"), as answer_check.SUBJECT_SHARE.
SUBJECT_SHARE = 0.10
# The shape's own words: never what is asked about.
SHAPE_STEMS = frozenset("support use work possibl way there is are can could would should will doe do have has get make "
                        "need want abl allow avail built-in built option featur provid offer let enabl run".split())
# Postgres' english stop words (what to_tsvector drops), with a few quantifiers.
STOP = frozenset("""i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her
hers herself it its itself they them their theirs themselves what which who whom this that these those am is are was were
be been being have has had having do does did doing a an the and but if or because as until while of at by for with about
against between into through during before after above below to from up down in out on off over under again further then
once here there when where why how all any both each few more most other some such no nor not only own same so than too
very s t can will just don should now several one two every""".split())
TRIGGER = re.compile(r"\b(?:support(?:s|ed)?(?:\s+for)?|compatible\s+with|works?\s+with|integrat\w*\s+with|"
                     r"there\s+(?:a|an|any|some)?|use)\s+", re.IGNORECASE)
OBJECT_END = re.compile(r"[,?.;!:]|\b(?:if|when|so|because|without|instead|after|before|while|or|whether|since|unless|"
                        r"like)\b", re.IGNORECASE)
TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]*[A-Za-z0-9]|[A-Za-z0-9]")
HEADING_LINE = re.compile(r"^\s*\*\*.*\*\*\s*$")


def yes_no(question: str) -> bool:
    return any(not WH_BEFORE.search(question[:m.start() + 1]) for m in YES_NO.finditer(question))


def object_text(question: str) -> str | None:
    """What a yes/no question asks about: the words after its support/there/use word, or after the
    auxiliary's subject (its determiners and one word), up to a clause mark or a joining word."""
    for m in YES_NO.finditer(question):
        if WH_BEFORE.search(question[:m.start() + 1]):
            continue
        rest = question[m.end() - 1:]
        trigger = TRIGGER.search(rest)
        if trigger:
            tail = rest[trigger.end():]
        else:
            tokens = list(TOKEN.finditer(rest))
            at = 0
            while at < len(tokens) and tokens[at].group(0).lower() in STOP:
                at += 1
            at += 1
            tail = rest[tokens[at].start():] if at < len(tokens) else ""
        end = OBJECT_END.search(tail)
        return tail[:end.start()] if end else tail
    return None


Row = dict[str, Any]
Term = tuple[str, int, float]


def corpus_size(terms: list[Term]) -> float:
    """The visible sections' count, read back from a held term's idf (as answer_check.counted_words)."""
    return next(((math.exp(idf) - 1) * (nd + 0.5) + nd - 0.5 for _, nd, idf in terms if nd > 0), 0.0)


def content_terms(row: Row) -> list[Term]:
    terms = [(str(t[0]), int(t[1]), float(t[2])) for t in row.get("terms") or []]
    n = corpus_size(terms)
    return [t for t in terms if 0 < t[1] < SUBJECT_SHARE * n and t[0] not in SHAPE_STEMS and not t[0][:1].isdigit()]


def line_stems(row: Row, headings: bool = True) -> list[set[str]]:
    lines = [x for x in str(row.get("summary") or "").split("\n") if x.strip()]
    return [set(s) for x, s in zip(lines, row.get("summary_stems") or [], strict=False)
            if headings or not HEADING_LINE.match(x)]


def object_terms(row: Row) -> list[Term]:
    text = object_text(row["question"])
    if text is None:
        return []
    words = [w.lower().replace("-", "").replace("_", "") for w in TOKEN.findall(text)]
    return [t for t in content_terms(row)
            if any(w.startswith(t[0]) or (t[0].endswith("i") and w.startswith(t[0][:-1])) for w in words)]


def object_words(row: Row) -> list[str]:
    """The object's words, known to the docs or not, but for stop words and the docs' subject."""
    text = object_text(row["question"])
    if text is None:
        return []
    terms = [(str(t[0]), int(t[1]), float(t[2])) for t in row.get("terms") or []]
    n = corpus_size(terms)
    subject = [lx for lx, nd, _ in terms if nd >= SUBJECT_SHARE * n]
    return [w.lower() for w in TOKEN.findall(text) if w.lower() not in STOP and len(w) >= 3 and not w[0].isdigit()
            and not any(w.lower().startswith(s) for s in subject)]


def shown(word: str, summary: str) -> bool:
    """A word start of the Summary (all but three letters of a long word: "samples" shows "sampl")."""
    return re.search(r"(?<![a-z0-9])" + re.escape(word[:max(4, len(word) - 3)]), summary, re.IGNORECASE) is not None


def held(term: str, lines: list[set[str]]) -> bool:
    return any(term in line for line in lines)


def rarest_unheld(terms: list[Term], lines: list[set[str]]) -> bool:
    return bool(terms) and not held(max(terms, key=lambda t: t[2])[0], lines)


def apart(terms: list[Term], lines: list[set[str]], count: int | None) -> bool:
    """No line holds the `count` rarest terms together (all of them when None)."""
    chosen = sorted(terms, key=lambda t: -t[2])[:count] if count else terms
    return bool(chosen) and not any(all(t[0] in line for t in chosen) for line in lines)


def unheld_share(terms: list[Term], lines: list[set[str]], threshold: float) -> bool:
    total = sum(t[2] for t in terms)
    return total > 0 and sum(t[2] for t in terms if not held(t[0], lines)) / total >= threshold


def rare_unheld(most: int) -> Callable[[Row], bool]:
    """A content term the docs hold in at most `most` sections (a rare, name-like word) in no line."""
    def rule(row: Row) -> bool:
        return any(not held(t[0], line_stems(row)) for t in content_terms(row) if t[1] <= most)
    return rule


CANDIDATES: dict[str, Callable[[Row], bool]] = {
    "rarest content term in no Summary line": lambda r: rarest_unheld(content_terms(r), line_stems(r)),
    "the same, heading lines left out": lambda r: rarest_unheld(content_terms(r), line_stems(r, False)),
    "any content term in no Summary line": lambda r: any(not held(t[0], line_stems(r)) for t in content_terms(r)),
    "two rarest content terms in no one line": lambda r: apart(content_terms(r), line_stems(r), 2),
    "no line holds every content term": lambda r: apart(content_terms(r), line_stems(r), None),
    "content terms' idf share in no line >= 0.34": lambda r: unheld_share(content_terms(r), line_stems(r), 0.34),
    "content terms' idf share in no line >= 0.5": lambda r: unheld_share(content_terms(r), line_stems(r), 0.5),
    "content terms' idf share in no line >= 0.67": lambda r: unheld_share(content_terms(r), line_stems(r), 0.67),
    **{f"a content term held by <= {k} sections in no line": rare_unheld(k) for k in (1, 3, 10)},
    "object: rarest content term in no line": lambda r: rarest_unheld(object_terms(r), line_stems(r)),
    "object: any content term in no line": lambda r: any(not held(t[0], line_stems(r)) for t in object_terms(r)),
    "object: none of its content terms in any line": lambda r: bool(object_terms(r)) and all(
        not held(t[0], line_stems(r)) for t in object_terms(r)),
    "object: no line holds all its content terms": lambda r: apart(object_terms(r), line_stems(r), None),
    "object: a word (known or not) not shown": lambda r: any(not shown(w, r["summary"]) for w in object_words(r)),
    "object: no word shown": lambda r: bool(object_words(r)) and all(not shown(w, r["summary"]) for w in object_words(r)),
}


def object_cosines(rows: list[Row]) -> dict[int, float]:
    """The offline model's best cosine between a question's object and a quoted line (heading lines,
    code fences and lines under 16 characters left out), by row index."""
    from app.embeddings.local import _load_model

    model = _load_model()
    best: dict[int, float] = {}
    for at, row in enumerate(rows):
        text = object_text(row["question"]) or ""
        lines = [x for x in str(row.get("summary") or "").split("\n")
                 if x.strip() and not HEADING_LINE.match(x) and not x.startswith("```") and len(x) > 15]
        if text.strip() and lines:
            vectors = model.encode([text, *lines], normalize_embeddings=True)
            best[at] = float((vectors[1:] @ vectors[0]).max())
    return best


def report_minilm(name: str, rows: list[Row]) -> None:
    shaped = [r for r in rows if r["outcome"] == "answered" and yes_no(r["question"])]
    best = object_cosines(shaped)
    for threshold in (0.35, 0.45, 0.55):
        hits = [shaped[at]["kind"] for at, cosine in best.items() if cosine < threshold]
        print(f"   {name}: object's best cosine to a quoted line < {threshold}: in-domain +{hits.count('indomain')}, "
              f"answerable hedged +{hits.count('answerable')}")


def read_rows(paths: list[Path]) -> dict[str, list[Row]]:
    """The rows by group: an eval set's line ("eval/<set>-docs.jsonl") or another file's."""
    groups: dict[str, list[Row]] = {"eval sets": [], "shared dev sets and tests/data": []}
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["kind"] in ("answerable", "indomain"):
                evaluation = row["file"].endswith("-docs.jsonl")
                groups["eval sets" if evaluation else "shared dev sets and tests/data"].append(row)
    return groups


def report(name: str, rows: list[Row], verbose: bool, shaped: Callable[[str], bool] = yes_no) -> None:
    indomain = [r for r in rows if r["kind"] == "indomain"]
    answerable = [r for r in rows if r["kind"] == "answerable"]
    caught = sum(r["outcome"] in ("refused", "partly") for r in indomain)
    print(f"== {name}: in-domain {len(indomain)} (refused or partly {caught}), answerable {len(answerable)} "
          f"(partly {sum(r['outcome'] == 'partly' for r in answerable)}, refused {sum(r['outcome'] == 'refused' for r in answerable)})")
    shaped_in = [r for r in indomain if r["outcome"] == "answered" and shaped(r["question"])]
    shaped_ans = [r for r in answerable if r["outcome"] == "answered" and shaped(r["question"])]
    print(f"   of the shape, answered without a hedge: in-domain {len(shaped_in)}, answerable {len(shaped_ans)}")
    for label, rule in CANDIDATES.items():
        hit_in = [r["id"] or r["question"][:40] for r in shaped_in if rule(r)]
        hit_ans = [r["id"] or r["question"][:40] for r in shaped_ans if rule(r)]
        print(f"   {label:48s} in-domain +{len(hit_in):3d}   answerable hedged +{len(hit_ans):3d}")
        if verbose:
            print(f"      in-domain: {' '.join(hit_in)}\n      answerable: {' '.join(hit_ans)}")


def shapes(paths: list[Path]) -> None:
    for path in paths:
        lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        for kind in ("answerable", "indomain"):
            chosen = [x for x in lines if (x.get("unanswerable") or "answerable") == kind]
            if chosen:
                print(f"{path}\t{kind}\t{len(chosen)}\t{sum(yes_no(x['question']) for x in chosen)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("probes", nargs="*", type=Path, help="scripts/probe_judgment.py's output files")
    parser.add_argument("--swap", action="store_true", help="tune on the shared dev sets and tests/data")
    parser.add_argument("--shapes", nargs="*", type=Path, default=[], help="eval files: lines, existence-shaped lines")
    parser.add_argument("--minilm", action="store_true", help="also the object's cosine to the quoted lines")
    parser.add_argument("--any-shape", action="store_true", help="every question, for reference")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    if args.shapes:
        shapes(args.shapes)
    if args.probes:
        groups = list(read_rows(args.probes).items())
        for role, (name, rows) in zip(("tune", "confirm"), groups[::-1] if args.swap else groups, strict=True):
            report(f"{role}: {name}", rows, args.verbose, (lambda q: True) if args.any_shape else yes_no)
            if args.minilm:
                report_minilm(role, rows)


if __name__ == "__main__":
    main()
