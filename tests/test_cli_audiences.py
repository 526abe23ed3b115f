"""The CLI answers as visitors see (CHAT_AUDIENCES) unless told otherwise; eval says whom it scored."""

from __future__ import annotations

import json

import pytest

from tests.helpers import docschat_in_process, seed_docs

PAGES = {
    "widget.mdx": "---\ntitle: Chat widget\npublic: true\n---\nThe widget adds a chat panel to any docs site.\n",
    "runbook.mdx": ("---\ntitle: Oncall runbook\naudience: internal\n---\nRotate the zebrafish credentials "
                    "every Tuesday with the rotation script.\n"),
}
QUESTION = "how do I rotate the zebrafish credentials"


@pytest.fixture
def seeded(offline) -> dict[str, str]:
    seed_docs(offline, PAGES)
    return {"DATABASE_URL": offline, "EMBEDDING_PROVIDER": "none"}


def _titles(result) -> list[str]:
    assert result.returncode == 0, result.stderr
    return [page["title"] for page in json.loads(result.stdout)["pages"]]


def test_search_and_ask_see_what_the_chat_sees_unless_told(seeded) -> None:
    assert _titles(docschat_in_process("search", QUESTION, "--json", env=seeded)) == []
    assert _titles(docschat_in_process("search", QUESTION, "--json", "--all-audiences", env=seeded)) == ["Oncall runbook"]
    assert _titles(docschat_in_process("search", QUESTION, "--json", "--audience", "internal", env=seeded)) == [
        "Oncall runbook"]
    widened = seeded | {"CHAT_AUDIENCES": "public,internal"}
    assert _titles(docschat_in_process("search", QUESTION, "--json", env=widened)) == ["Oncall runbook"]
    asked = docschat_in_process("ask", QUESTION, env=seeded)
    assert asked.returncode == 0 and "Oncall runbook" not in asked.stdout, asked.stdout
    asked = docschat_in_process("ask", QUESTION, "--all-audiences", env=seeded)
    assert "Oncall runbook" in asked.stdout and "docschat ask --all-audiences --session" in asked.stderr
    both = docschat_in_process("search", QUESTION, "--all-audiences", "--audience", "public", env=seeded)
    assert both.returncode == 2 and "--all-audiences searches every audience" in both.stderr


def test_eval_scores_as_the_chat_sees_and_says_so(seeded, tmp_path) -> None:
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps({"question": QUESTION, "gold": ["http://127.0.0.1:8000/docs/runbook"]}) + "\n")
    plain = docschat_in_process("eval", str(questions), "--mode", "keyword", env=seeded)
    assert plain.returncode == 0, plain.stderr
    assert "audiences scored: public (CHAT_AUDIENCES)" in plain.stdout
    assert "recall 0.000" in plain.stdout
    every = docschat_in_process("eval", str(questions), "--mode", "keyword", "--all-audiences", env=seeded)
    assert "audiences scored: every audience (--all-audiences)" in every.stdout and "recall 1.000" in every.stdout
    report = json.loads(docschat_in_process("eval", str(questions), "--mode", "keyword", "--json", env=seeded).stdout)
    assert report["audiences"] == ["public"] and report["recall"] == 0.0
