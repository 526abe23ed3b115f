"""`docschat eval --answers`: the chat's own turn on each question of a tiny corpus, its Summary
scored against the question's facts, on a real Postgres through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.evaluation.answers import fact_missing, summary_for_facts, wilson_interval
from app.search.eval import EvalFileError, load_eval_file, load_facts_file
from tests.helpers import make_docs_repo
from tests.test_operations_cli import docschat

DOCS = {
    "limits.mdx": (
        "---\ntitle: Question limits\npublic: true\n---\nHow many questions a visitor may ask.\n\n"
        "## Visitor quota\nA visitor may ask 5 questions an hour and 10 questions a day. "
        "Set RATE_LIMIT_PER_HOUR to change the hourly quota.\n"
    ),
    "widget.mdx": (
        "---\ntitle: Chat widget\npublic: true\n---\nThe widget adds a chat panel to any docs site.\n\n"
        "## Embed the widget\nAdd one script tag to your pages. The script tag loads widget.js from your "
        "docschat server.\n"
    ),
}
BASE = "https://x.test/docs"
QUESTIONS = [
    {"id": "quota", "split": "dev", "question": "how many questions can a visitor ask per hour?",
     "gold": [f"{BASE}/limits#visitor-quota"], "facts": ["5 questions an hour"]},
    # widget.js is in the docs, an iframe is not: all of a line's facts must match.
    {"id": "embed", "split": "heldout", "question": "how do I embed the widget script tag",
     "gold": [f"{BASE}/widget#embed-the-widget"], "facts": ["widget\\.js", "iframe"]},
    {"id": "france", "split": "dev", "question": "What is the capital of France?", "gold": [],
     "unanswerable": "offtopic"},
]


@pytest.fixture
def corpus(db_env, pool, tmp_path, monkeypatch) -> Path:
    repo = make_docs_repo(tmp_path / "repo", DOCS)
    for name, value in {"DOCS_REPO": str(repo), "EMBEDDING_PROVIDER": "none", "ANSWER_PROVIDER": "extractive",
                        "DOCS_BASE_URL": "https://x.test"}.items():
        monkeypatch.setenv(name, value)
    path = tmp_path / "questions.jsonl"
    path.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS), encoding="utf-8")
    return path


async def test_eval_answers_scores_each_summary_against_its_facts(corpus: Path, pool) -> None:
    assert (await docschat("sync")).exit_code == 0
    result = await docschat("eval", str(corpus), "--answers", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    rows = {row["id"]: row for row in report["per_question"]}
    assert report["answerer"] == "extractive"
    assert (report["questions"], report["answerable"], report["with_facts"]) == (3, 2, 2)
    assert rows["quota"]["outcome"] == "answered" and rows["quota"]["states_fact"] is True
    assert "5 questions an hour" in rows["quota"]["summary"] and rows["quota"]["gold_page_listed"] is True
    assert rows["embed"]["outcome"] == "answered" and "widget.js" in rows["embed"]["summary"]
    assert rows["embed"]["states_fact"] is False and rows["embed"]["missing"] == ["iframe"]
    assert rows["france"]["outcome"] == "refused" and "states_fact" not in rows["france"]
    assert report["states_fact"] == 1 and report["fact_rate"] == 0.5 and report["fact_rate_95"] == [0.095, 0.905]
    assert report["false_refusal_rate"] == 0.0 and report["errors"] == 0
    assert report["unanswerable_by_kind"] == {
        "offtopic": {"questions": 1, "refused": 1, "partly": 0, "refused_or_partly_rate": 1.0}}
    assert report["by_split"]["dev"]["fact_rate"] == 1.0 and report["by_split"]["heldout"]["fact_rate"] == 0.0
    assert report["by_split"]["dev"]["questions"] == 2
    async with pool.acquire() as conn:  # an evaluation leaves no conversation and no gap behind
        assert await conn.fetchval("select count(*) from public.docs_chat_session") == 0
        assert await conn.fetchval("select count(*) from public.docs_chat_message") == 0
        assert await conn.fetchval("select count(*) from public.docs_chat_gap") == 0

    text = await docschat("eval", str(corpus), "--answers")  # what a person reads
    assert text.exit_code == 0, text.output
    assert "3 questions (2 answerable, 2 with facts), answerer extractive" in text.output
    assert "all (3 questions)\n  states the fact 0.500 (1/2; 95% interval 0.095–0.905)\n" in text.output
    assert "heldout (1 question)\n  states the fact 0.000 (0/1; 95% interval 0.000–0.793)\n" in text.output
    assert "  offtopic: refused or partly 1.000 (1 refused, 0 partly, of 1)\n" in text.output


async def test_eval_answers_takes_facts_from_a_file_keyed_by_id(corpus: Path, tmp_path: Path) -> None:
    assert (await docschat("sync")).exit_code == 0
    facts = tmp_path / "facts.jsonl"
    facts.write_text(json.dumps({"id": "embed", "facts": "script tag"}) + "\n", encoding="utf-8")
    result = await docschat("eval", str(corpus), "--answers", "--facts", str(facts), "--json")
    assert result.exit_code == 0, result.output
    rows = {row["id"]: row for row in json.loads(result.stdout)["per_question"]}
    assert rows["embed"]["facts"] == ["script tag"] and rows["embed"]["states_fact"] is True
    retrieval = await docschat("eval", str(corpus), "--facts", str(facts))
    assert retrieval.exit_code != 0 and "--facts goes with --answers" in retrieval.output
    mode = await docschat("eval", str(corpus), "--answers", "--mode", "keyword")
    assert mode.exit_code != 0 and "--answers runs the chat as configured" in mode.output


def test_facts_match_the_summary_as_read() -> None:
    summary = "Set `ANSWER_FLOOR` (default **0.45**) [2].\n\nIt is  the floor."
    assert summary_for_facts(summary) == "Set ANSWER_FLOOR (default 0.45) . It is the floor."
    assert fact_missing(summary, ("answer_floor \\(default 0\\.45\\)", "floor|ceiling")) == []
    assert fact_missing(summary, ("0\\.45", "0\\.40")) == ["0\\.40"]
    # A link reads as its text: typeorm-09's `minif` matched the target `vite.dev/…#build-minify`
    # of a paragraph that names no fix.
    linked = "See the [Vite docs](https://vite.dev/config/build-options#build-minify \"Vite\") [1]."
    assert summary_for_facts(linked) == "See the Vite docs ."
    assert fact_missing(linked, ("minif",)) == ["minif"]
    # A code's own asterisks stay (Flask's fl-10: "`gunicorn -w CPU * 2`" could not match `CPU \* 2`).
    code = "Run `gunicorn -w CPU * 2` **now**:\n\n```python\nworkers = cpus * 2\n```"
    assert summary_for_facts(code) == "Run gunicorn -w CPU * 2 now: python workers = cpus * 2"
    assert fact_missing(code, ("CPU \\* 2", "cpus \\* 2")) == []


def test_the_interval_of_a_share() -> None:
    """Wilson's interval: 11 of 20 is 0.34–0.74 (as R's prop.test without continuity correction)."""
    assert wilson_interval(11, 20) == [0.342, 0.742]
    assert wilson_interval(0, 10) == [0.0, 0.278] and wilson_interval(10, 10) == [0.722, 1.0]
    assert wilson_interval(0, 0) is None


def test_a_facts_line_that_cannot_be_used_is_named(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    for line, message in [
        ({"question": "q", "gold": ["https://x.test/a"], "facts": "(unclosed"}, "not a regular expression"),
        ({"question": "q", "gold": ["https://x.test/a"], "facts": [""]}, "'facts' must be"),
        ({"question": "q", "gold": ["https://x.test/a"], "facts": 5}, "'facts' must be"),
        ({"question": "q", "gold": [], "facts": ["x"]}, "unanswerable line"),
        ({"question": "q", "gold": ["https://x.test/a"], "split": ""}, "'split'"),
    ]:
        path.write_text(json.dumps(line) + "\n", encoding="utf-8")
        with pytest.raises(EvalFileError, match=message):
            load_eval_file(path)
    path.write_text(json.dumps({"id": "a", "question": "q", "gold": ["https://x.test/a"]}) + "\n"
                    + json.dumps({"id": "u", "question": "q", "gold": []}) + "\n", encoding="utf-8")
    items = load_eval_file(path)
    facts = tmp_path / "f.jsonl"
    for line, message in [({"id": "b", "facts": "x"}, "no question has id 'b'"),
                          ({"id": "u", "facts": "x"}, "unanswerable"), ({"facts": "x"}, "string 'id'")]:
        facts.write_text(json.dumps(line) + "\n", encoding="utf-8")
        with pytest.raises(EvalFileError, match=message):
            load_facts_file(facts, items)


def test_the_committed_fact_sets_load() -> None:
    """The sets under eval/ are well-formed, a third of each held out, with both kinds of unanswerable."""
    root = Path(__file__).resolve().parent.parent / "eval"
    total = 0
    for name in ("docschat-docs.jsonl", "mintlify-docs.jsonl", "ray-docs.jsonl", "mem0-docs.jsonl", "trigger-docs.jsonl",
                 "pnpm-docs.jsonl", "httpx-docs.jsonl", "openlit-docs.jsonl", "dify-docs.jsonl",
                 "structlog-docs.jsonl", "typer-docs.jsonl", "typeorm-docs.jsonl", "unkey-docs.jsonl",
                 "vitest-docs.jsonl", "openhands-docs.jsonl"):
        items = load_eval_file(root / name)
        total += len(items)
        assert all(item.facts for item in items if item.answerable), name
        assert {item.unanswerable for item in items} >= {"indomain", "offtopic"}, name
        heldout = sum(item.split == "heldout" for item in items)
        assert {item.split for item in items} == {"dev", "heldout"} and abs(heldout - len(items) / 3) <= 1.5, name
    assert total >= 60


def test_the_shared_word_offtopic_set_splits_by_site() -> None:
    """eval/offtopic-shared-words.jsonl (session 37): off-topic lines only, six on each of at least
    eight sites, each site wholly in the tune or the confirm half, so no threshold chosen on one
    site is confirmed on it."""
    items = load_eval_file(Path(__file__).resolve().parent.parent / "eval" / "offtopic-shared-words.jsonl")
    halves: dict[str, set[str | None]] = {}
    per_site: dict[str, int] = {}
    for item in items:
        assert item.unanswerable == "offtopic" and not item.gold and item.id, item
        site = item.id.removeprefix("osw-").rsplit("-", 1)[0]
        halves.setdefault(site, set()).add(item.split)
        per_site[site] = per_site.get(site, 0) + 1
    assert len(per_site) >= 8 and all(n >= 6 for n in per_site.values()), per_site
    assert all(len(split) == 1 and split <= {"tune", "confirm"} for split in halves.values()), halves
    assert {next(iter(split)) for split in halves.values()} == {"tune", "confirm"}
