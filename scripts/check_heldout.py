"""Check a held-out question set against the shared corpora before anyone scores on it.

    python scripts/check_heldout.py              # set 4 (tests/data/*-heldout4.jsonl)
    python scripts/check_heldout.py --set 5      # set 5, checked like set 4
    python scripts/check_heldout.py --set 6      # set 6 (8 lines per corpus), checked like set 4
    python scripts/check_heldout.py --set 3      # another set: format, greps and gold sections only
    python scripts/check_heldout.py --selftest   # also prove that a wrong gold is caught

For every line, with the reader `docschat eval` uses (app.search.eval.load_eval_file):
- answerable: each gold URL is a section of the composed corpus (base URL + chunk href, as the eval
  forms them); for sets 4, 5 and 6 the gold section and the reference answer both hold the line's key phrases
  (KEYS), and the user words a paraphrased question uses (PARAPHRASED) are absent from that section;
- unanswerable: the recorded grep (`checked`) is re-run over ../shared and must give `grep_hits`;
- the set has 12 lines per corpus (8 for set 6), unique ids, and every in-domain line says "unanswerable": "indomain".
Exit status 1 on any failure. The eval is never run here: the set stays unseen by the method.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import subprocess
import sys
from collections import Counter
from pathlib import Path

from _corpus import ROOT, SHARED, corpus_repo

from app.config import Settings
from app.corpus.compose import DocsSource, compose_corpus
from app.search.eval import load_eval_file
from app.search.urls import absolute_url

CORPORA = {"claude": ("claude-docs", "https://docs.claude.com"), "ray": ("ray-docs", "https://docs.ray.io"),
           "mintlify": ("mintlify-docs", "https://mintlify.com/docs")}
PER_CORPUS = {"6": 8}  # lines per corpus in a set; 12 unless listed
SETS_WITH_KEYS = {"4", "5", "6"}  # sets whose key phrases and paraphrase words are recorded below

# Sets 4, 5 and 6: phrases of the reference answer that the gold section must hold (all of them).
KEYS: dict[str, list[str]] = {
    "answerable4-mintlify-01": ["letsencrypt.org"],
    "answerable4-mintlify-02": ["CNAME flattening", "Porkbun"],
    "answerable4-mintlify-03": ["48 hours"],
    "answerable4-mintlify-04": ["/new/article-*"],
    "answerable4-mintlify-05": ["does not apply hidden"],
    "answerable4-mintlify-06": ["H1 heading"],
    "answerable4-mintlify-07": ["do not generate preview deployments"],
    "answerable4-mintlify-08": ["Revoke credentials"],
    "answerable4-mintlify-09": ["Enterprise", "regardless of group restrictions"],
    "answerable4-mintlify-10": ["MINTLIFY_TELEMETRY_DISABLED", "--telemetry false"],
    "answerable4-mintlify-11": ["between 1 and 100"],
    "answerable4-mintlify-12": ["greater than 10"],
    "answerable4-claude-01": ["2607:6bc0::/48"],
    "answerable4-claude-02": ["530 tokens"],
    "answerable4-claude-03": ["count_tokens"],
    "answerable4-claude-04": ["monthly usage limit", "next tier"],
    "answerable4-claude-05": ["application/json"],
    "answerable4-claude-06": ["no plans yet to sunset"],
    "answerable4-claude-07": ["3.5 English characters"],
    "answerable4-claude-08": ["May 30th, 2024"],
    "answerable4-claude-09": ["Completions are incremental"],
    "answerable4-claude-10": ["Cmd + Enter"],
    "answerable4-claude-11": ["{{variable}}"],
    "answerable4-claude-12": ["Python 3.7+", "TypeScript 4.5+"],
    "answerable4-ray-01": ["get_if_exists"],
    "answerable4-ray-02": ["512 MB", "RAY_ROTATION_BACKUP_COUNT"],
    "answerable4-ray-03": ["/tmp/ray/session_*/logs"],
    "answerable4-ray-04": ["max_calls=0"],
    "answerable4-ray-05": ["projection pushdown"],
    "answerable4-ray-06": ["RAY_COLOR_PREFIX=0"],
    "answerable4-ray-07": ["ray.actor.exit_actor()"],
    "answerable4-ray-08": ['lifetime="detached"'],
    "answerable4-ray-09": ["65535"],
    "answerable4-ray-10": ["8 CPUs and 32 GB memory"],
    "answerable4-ray-11": ["sync_on_checkpoint", "sync_period"],
    "answerable4-ray-12": ["single top-level directory"],
    "answerable5-claude-01": ["permission_error"],
    "answerable5-claude-02": ["1568 pixels", "1.15 megapixels"],
    "answerable5-claude-03": ["end_turn"],
    "answerable5-claude-04": ["full model version"],
    "answerable5-claude-05": ["Claude 3 Opus", "infer missing parameters"],
    "answerable5-claude-06": ["1 request per second"],
    "answerable5-claude-07": ["June 25th, 2024", "Pro and Team"],
    "answerable5-claude-08": ["x-api-key"],
    "answerable5-claude-09": ["hierarchical classification", "taxonomic tree"],
    "answerable5-claude-10": ["Code-based grading", "Avoid if possible"],
    "answerable5-claude-11": ["only when absolutely necessary", "output screening"],
    "answerable5-claude-12": ["helpful", "honest", "harmless"],
    "answerable5-ray-01": ["30 seconds", "RAY_CLIENT_RECONNECT_GRACE_PERIOD"],
    "answerable5-ray-02": ['verify="/path/to/cert.pem"'],
    "answerable5-ray-03": ["cache_stopped_nodes", "terminated"],
    "answerable5-ray-04": ["arr.copy()"],
    "answerable5-ray-05": ["new raylet/node"],
    "answerable5-ray-06": ["100KiB"],
    "answerable5-ray-07": ["max_constructor_retry_count", "RAY_SERVE_MAX_PER_REPLICA_RETRY_COUNT"],
    "answerable5-ray-08": ["RAY_SERVE_KV_TIMEOUT_S"],
    "answerable5-ray-09": ["min_rows_per_write"],
    "answerable5-ray-10": ["ConcurrencyLimiter", "max_concurrent_trials=4"],
    "answerable5-ray-11": ["--ray-debugger-external", "behind a firewall"],
    "answerable5-ray-12": ["when starting the Ray cluster", "will NOT work"],
    "answerable5-mintlify-01": ["15 minutes", "24/7"],
    "answerable5-mintlify-02": ["?private=true"],
    "answerable5-mintlify-03": ["5,000 requests per hour", "rolling hourly window"],
    "answerable5-mintlify-04": ["--disable-prefetch"],
    "answerable5-mintlify-05": ["lock the deployment branch", "read-only"],
    "answerable5-mintlify-06": ["Mintlify GitHub App signs commits"],
    "answerable5-mintlify-07": ["Enterprise plan", "static IP address"],
    "answerable5-mintlify-08": ["Accept: text/markdown"],
    "answerable5-mintlify-09": ["{#custom-id}"],
    "answerable5-mintlify-10": ["Language-specific banner"],
    "answerable5-mintlify-11": ["Static file serving is not supported"],
    "answerable5-mintlify-12": ["x-excluded", "completely excludes"],
    "answerable6-claude-01": ["Service Status"],
    "answerable6-claude-02": ["harmlessness_screen", "SEC rules, FINRA guidelines"],
    "answerable6-claude-03": ["handle unknown event types gracefully"],
    "answerable6-claude-04": ["overloaded_error", "529"],
    "answerable6-claude-05": ["record_summary", "follows a provided schema"],
    "answerable6-claude-06": ["ranking a set of two or more example texts", "Claude has been trained using RLHF"],
    "answerable6-claude-07": ["permission to admit uncertainty", "word-for-word quotes"],
    "answerable6-claude-08": ["What audience the output is meant for", "sequential steps"],
    "answerable6-ray-01": ['the "spawn" method'],
    "answerable6-ray-02": ["one batch at a time", "object store out-of-space"],
    "answerable6-ray-03": ["lightweight config update", "won't tear down the replicas"],
    "answerable6-ray-04": ["does not support recovery from owner failure", "OwnerDiedError"],
    "answerable6-ray-05": ["does not provide a native storage solution for log data"],
    "answerable6-ray-06": ["_local_testing_mode", "background thread"],
    "answerable6-ray-07": ["Tuner.restore", "from where it left off"],
    "answerable6-ray-08": ["~76% of the disk"],
    "answerable6-mintlify-01": ["support@mintlify.com", "proof that you own it"],
    "answerable6-mintlify-02": ["immediately invalidates the previous token", "Provisioning stops working"],
    "answerable6-mintlify-03": ["api-eu.mixpanel.com", "Mixpanel drops the events"],
    "answerable6-mintlify-04": ["50-60 characters"],
    "answerable6-mintlify-05": ["commit it into your documentation repository", "repo-relative path"],
    "answerable6-mintlify-06": ["client secret", "Renew secret"],
    "answerable6-mintlify-07": ["/rss.xml", "only available on public documentation"],
    "answerable6-mintlify-08": ["?assistant=<message>"],
}

# Sets 4, 5 and 6: questions phrased in the user's words, and those words, which the gold section must not use.
PARAPHRASED: dict[str, list[str]] = {
    "answerable4-mintlify-01": ["SSL", "never gets issued"],
    "answerable4-mintlify-02": ["bare", "root domain"],
    "answerable4-mintlify-04": ["carry", "moved"],
    "answerable4-mintlify-07": ["outside contributor", "copy of the repo", "bug"],
    "answerable4-mintlify-08": ["leaving", "log them out", "kill"],
    "answerable4-mintlify-10": ["usage stats", "build server", "sending"],
    "answerable4-claude-02": ["cost more", "extra tokens"],
    "answerable4-claude-03": ["pay", "how long"],
    "answerable4-claude-04": ["allowance", "used up", "stuck"],
    "answerable4-claude-06": ["retiring", "prod"],
    "answerable4-claude-10": ["start a new line"],
    "answerable4-claude-11": ["placeholder", "won't let me"],
    "answerable4-ray-01": ["alive", "already running"],
    "answerable4-ray-02": ["roll over", "growing", "old ones"],
    "answerable4-ray-06": ["garbage", "escape", "pipe", "plain text"],
    "answerable4-ray-07": ["shut itself down", "own methods"],
    "answerable4-ray-10": ["specs", "head box", "really big"],
    "answerable4-ray-11": ["NFS", "copied"],
    "answerable5-claude-01": ["Forbidden"],
    "answerable5-claude-02": ["phone photos", "shrink", "slow things down"],
    "answerable5-claude-05": ["making up", "asking me"],
    "answerable5-claude-06": ["fires off", "at once"],
    "answerable5-claude-08": ["Bearer", "Authorization"],
    "answerable5-claude-09": ["monster"],
    "answerable5-ray-01": ["laptop", "wifi", "throws away"],
    "answerable5-ray-02": ["internal CA", "trust"],
    "answerable5-ray-03": ["deleted", "shut off", "gone"],
    "answerable5-ray-05": ["node agent", "boxes", "comes back"],
    "answerable5-ray-07": ["crashing", "weights", "giving up"],
    "answerable5-ray-09": ["spits out", "tiny", "bigger"],
    "answerable5-mintlify-01": ["middle of the night", "weekend", "goes down"],
    "answerable5-mintlify-03": ["hammering"],
    "answerable5-mintlify-04": ["sluggish", "takes ages"],
    "answerable5-mintlify-05": ["straight to main", "stop people"],
    "answerable5-mintlify-07": ["whitelisted", "fixed address"],
    "answerable5-mintlify-09": ["reword", "pin", "stop working"],
    "answerable6-claude-01": ["outage", "right now", "debugging my own code"],
    "answerable6-claude-03": ["blows up", "never seen"],
    "answerable6-claude-05": ["spit out", "exact shape"],
    "answerable6-claude-07": ["inventing", "isn't sure", "tricks"],
    "answerable6-ray-01": ["multiprocessing", "garbled", "randomly hangs"],
    "answerable6-ray-03": ["bump", "killed", "brought back up"],
    "answerable6-ray-05": ["survive", "pod is gone", "built-in log store"],
    "answerable6-ray-07": ["sweep", "died halfway", "pick it back up"],
    "answerable6-mintlify-01": ["coworker who left", "log in", "get it back"],
    "answerable6-mintlify-03": ["lives in", "show up"],
    "answerable6-mintlify-05": ["internal server", "VPN"],
    "answerable6-mintlify-08": ["support emails", "drops", "AI chat", "already typed"],
}

_CHECKED = re.compile(r"^cd corpora/([a-z0-9-]+) && (grep .+)$")


def norm(text: str) -> str:
    """Lowercase, Markdown code and bold marks dropped, whitespace collapsed: '`1`' matches '1'."""
    return " ".join(text.replace("`", "").replace("**", "").lower().split())


def compose_sections(corpus: str, shared: Path) -> dict[str, str]:
    """{absolute section URL: its text (the parts of a split section joined)} as the eval forms the URLs."""
    folder, base = CORPORA[corpus]
    repo = corpus_repo(folder, shared)
    result = compose_corpus(DocsSource(repo, "main", "docs"), Settings(docs_url_prefix=""))
    sections: dict[str, list[str]] = {}
    for chunk in result.chunks:
        sections.setdefault(absolute_url(base, chunk.href), []).append(f"{chunk.heading}\n{chunk.text}")
    return {url: "\n".join(parts) for url, parts in sections.items()}


def check_answerable(line: dict, sections: dict[str, str], with_keys: bool) -> list[str]:
    """Problems of one answerable line ([] when it passes)."""
    problems = []
    lid = line["id"]
    base = CORPORA[line["corpus"]][1]
    for gold in line["gold"]:
        if not gold.startswith(base + "/"):
            problems.append(f"{lid}: gold {gold} is not under {base}")
        if gold not in sections:
            problems.append(f"{lid}: gold {gold} is no section of the composed corpus")
    if not with_keys or problems:
        return problems
    keys = KEYS.get(lid)
    if not keys:
        return [f"{lid}: no key phrase recorded"]
    gold_text = norm("\n".join(sections[g] for g in line["gold"]))
    for key in keys:
        if norm(key) not in gold_text:
            problems.append(f"{lid}: gold section lacks key phrase {key!r}")
        if norm(key) not in norm(line["answer"]):
            problems.append(f"{lid}: reference answer lacks key phrase {key!r}")
    for word in PARAPHRASED.get(lid, []):
        if norm(word) in gold_text:
            problems.append(f"{lid}: paraphrase word {word!r} is the docs' own word (in the gold section)")
        if norm(word) not in norm(line["question"]):
            problems.append(f"{lid}: paraphrase word {word!r} is not in the question")
    return problems


def check_unanswerable(line: dict, shared: Path) -> tuple[list[str], int | None]:
    """(problems, hits of the recorded grep) of one in-domain unanswerable line."""
    lid = line["id"]
    if line.get("unanswerable") != "indomain" or line["gold"]:
        return [f"{lid}: needs \"unanswerable\": \"indomain\" and \"gold\": []"], None
    match = _CHECKED.match(line.get("checked", ""))
    if not match or match.group(1) != CORPORA[line["corpus"]][0]:
        return [f"{lid}: 'checked' is not `cd corpora/{CORPORA[line['corpus']][0]} && grep ...`"], None
    argv = shlex.split(match.group(2))
    if argv[0] != "grep":
        return [f"{lid}: 'checked' runs {argv[0]}, not grep"], None
    done = subprocess.run(argv, cwd=shared / "corpora" / match.group(1), capture_output=True, text=True)
    if done.returncode > 1:
        return [f"{lid}: grep failed: {done.stderr.strip()}"], None
    hits = len(done.stdout.split())
    if hits != line.get("grep_hits"):
        return [f"{lid}: grep finds {hits} files, the line records {line.get('grep_hits')}"], hits
    return [], hits


def read_lines(path: Path) -> list[dict]:
    load_eval_file(path)  # the eval's own reader must accept the file
    return [json.loads(text) for text in path.read_text(encoding="utf-8").splitlines() if text.strip()]


def check_counts(lines: list[dict], name: str, per_corpus: int) -> list[str]:
    problems = []
    ids = Counter(line.get("id") for line in lines)
    problems += [f"{name}: id {i} appears {n} times" for i, n in ids.items() if n > 1 or not i]
    per = Counter(line.get("corpus") for line in lines)
    problems += [f"{name}: {per.get(c, 0)} {c} lines, not {per_corpus}" for c in CORPORA if per.get(c) != per_corpus]
    problems += [f"{name}: unknown corpus {c}" for c in per if c not in CORPORA]
    return problems


def selftest(answerable: list[dict], sections: dict[str, dict[str, str]]) -> list[str]:
    """Every answerable line, given a wrong gold (a missing anchor, then another line's section), must fail."""
    problems = []
    for i, line in enumerate(answerable):
        other = next(o for o in answerable[i + 1:] + answerable[:i] if o["corpus"] == line["corpus"]
                     and o["gold"] != line["gold"])
        for wrong in ([line["gold"][0] + "-nope"], other["gold"]):
            broken = {**line, "gold": wrong}
            if not check_answerable(broken, sections[line["corpus"]], with_keys=True):
                problems.append(f"selftest: {line['id']} with gold {wrong} passed")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", default="4", help="held-out set number (default 4)")
    parser.add_argument("--selftest", action="store_true", help="also check that wrong golds fail")
    args = parser.parse_args()
    data = ROOT / "tests" / "data"
    with_keys = args.set in SETS_WITH_KEYS
    answerable = read_lines(data / f"answerable-heldout{args.set}.jsonl")
    unanswerable = read_lines(data / f"unanswerable-indomain-heldout{args.set}.jsonl")
    per_corpus = PER_CORPUS.get(args.set, 12)
    problems = check_counts(answerable, "answerable", per_corpus) + check_counts(unanswerable, "unanswerable", per_corpus)

    sections = {corpus: compose_sections(corpus, SHARED) for corpus in CORPORA}
    for corpus in CORPORA:
        print(f"{corpus}: {len(sections[corpus])} sections composed")
    for line in answerable:
        found = check_answerable(line, sections[line["corpus"]], with_keys)
        problems += found
        mark = "FAIL" if found else "ok"
        para = " paraphrased" if line["id"] in PARAPHRASED else ""
        print(f"{mark:4} {line['id']}{para}: {', '.join(line['gold'])}")
    hits_total: Counter[str] = Counter()
    for line in unanswerable:
        found, hits = check_unanswerable(line, SHARED)
        problems += found
        hits_total[line["corpus"]] += 1 if hits else 0
        print(f"{'FAIL' if found else 'ok':4} {line['id']}: grep hits {hits}")
    if args.selftest:
        bad = selftest(answerable, sections) if with_keys else [f"selftest needs the key phrases of sets {sorted(SETS_WITH_KEYS)}"]
        problems += bad
        print(f"selftest: {2 * len(answerable)} wrong golds tried, {len(bad)} passed unnoticed")

    per = Counter(line["corpus"] for line in answerable)
    paraphrased_per_corpus = Counter(line["corpus"] for line in answerable if line["id"] in PARAPHRASED)
    print("answerable per corpus:", dict(per), "paraphrased:", dict(paraphrased_per_corpus))
    print("unanswerable per corpus:", dict(Counter(line["corpus"] for line in unanswerable)),
          "with grep hits to read:", dict(hits_total))
    for problem in problems:
        print("PROBLEM", problem)
    print(f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
