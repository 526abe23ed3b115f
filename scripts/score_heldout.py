"""Score a held-out pair (in-domain unanswerable + answerable lines, each with a "corpus" field) with
this checkout, per shared corpus, through scripts/eval_corpus.sh (offline model, hybrid, shipped
defaults):

    SHARED_DIR=../shared .venv/bin/python scripts/score_heldout.py \
        tests/data/unanswerable-indomain-heldout5.jsonl tests/data/answerable-heldout5.jsonl /tmp/score

HOME_PREFIX/<corpus> is each corpus's DOCSCHAT_HOME: synced the first time (a minute or two with an
embedding cache copied in), reused after (NOSYNC). Prints refused / lines per corpus and in all,
and writes HOME_PREFIX/<corpus>-eval.json (every question's verdict, `answer_check` included).
Stop the databases afterwards: DOCSCHAT_HOME=HOME_PREFIX/<corpus> .venv/bin/docschat db stop.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ("claude", "ray", "mintlify")


def main(indomain: str, answerable: str, prefix: str) -> int:
    lines: dict[str, list[dict]] = {c: [] for c in CORPORA}
    for path, kind in ((indomain, "indomain"), (answerable, "answerable")):
        for raw in Path(path).read_text(encoding="utf-8").splitlines():
            if raw.strip():
                line = json.loads(raw)
                if kind == "indomain" and line.get("gold"):
                    sys.exit(f"{path}: {line.get('id')} has a gold: not an unanswerable line")
                kept = {k: line[k] for k in ("id", "question", "gold", "history", "unanswerable") if k in line}
                lines[line["corpus"]].append(kept | {"id": f"{kind}|{line.get('id')}"})
    totals = {"indomain": [0, 0], "answerable": [0, 0]}
    for corpus, items in lines.items():
        if not items:
            continue
        home = Path(prefix) / corpus
        home.mkdir(parents=True, exist_ok=True)
        questions = home / "questions.jsonl"
        questions.write_text("".join(json.dumps(i) + "\n" for i in items), encoding="utf-8")
        env = os.environ | {"QUESTIONS": str(questions), "LEG_TIMEOUT_SECONDS": os.environ.get("LEG_TIMEOUT_SECONDS", "120"),
                            "QUERY_EMBEDDING_TIMEOUT_SECONDS": os.environ.get("QUERY_EMBEDDING_TIMEOUT_SECONDS", "120")}
        if (home / "sync.json").exists():
            env["NOSYNC"] = "1"
        run = subprocess.run([str(ROOT / "scripts" / "eval_corpus.sh"), corpus, str(home), "--mode", "hybrid"],
                             env=env, capture_output=True, text=True, check=False)
        if run.returncode != 0:
            sys.exit(f"{corpus}: eval failed: {run.stderr[-2000:]}")
        if "answer_check_failed" in run.stderr:
            print(f"{corpus}: WARNING answer_check_failed in the log (the check failed open)", file=sys.stderr)
        report = json.loads(run.stdout)
        (Path(prefix) / f"{corpus}-eval.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
        counts = {"indomain": [0, 0], "answerable": [0, 0]}
        for q in report["per_question"]:
            kind = q["id"].split("|", 1)[0]
            counts[kind][0] += not q["would_answer"]
            counts[kind][1] += 1
        for kind, (refused, n) in counts.items():
            totals[kind][0] += refused
            totals[kind][1] += n
        print(f"{corpus:9s} in-domain refused {counts['indomain'][0]}/{counts['indomain'][1]}   "
              f"answerable refused (false refusals) {counts['answerable'][0]}/{counts['answerable'][1]}")
    for kind, (refused, n) in totals.items():
        print(f"all       {kind:10s} refused {refused}/{n} = {refused / n:.3f}" if n else f"all       {kind}: no lines")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
