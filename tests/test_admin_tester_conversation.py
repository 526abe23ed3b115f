"""The console's Tester reads a feedback row's question in its conversation (issue 47): a follow-up
is asked after the questions before it, as the chat asked it; feedback answers come as text too."""

from __future__ import annotations

import json

import httpx

from tests.test_admin import admin_env, auth, docs_repo, wait_for_job  # noqa: F401 - the fixtures

FIRST, FOLLOW_UP = "How do I run a sync?", "when should I run it?"


def ask(client: httpx.Client, question: str) -> dict:
    """The chat's answer as its stream ends: messageId and the finish metadata."""
    parts = [json.loads(line[6:]) for line in client.post("/docs/chat", json={"message": question}).text.split("\n")
             if line.startswith("data: {")]
    start = next(p for p in parts if p["type"] == "start")
    finish = next(p for p in parts if p["type"] == "finish")
    return {"id": start["messageId"], **finish.get("messageMetadata", {})}


def test_the_tester_asks_a_follow_up_with_its_conversation(admin_env, start_server, monkeypatch) -> None:  # noqa: F811
    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "100")
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as visitor, \
            httpx.Client(base_url=server.url, timeout=30, headers=auth()) as operator:
        wait_for_job(operator, operator.post("/admin/api/reindex").json()["job"]["id"])
        ask(visitor, FIRST)
        answered = ask(visitor, FOLLOW_UP)  # the same browser: one conversation
        assert visitor.post("/docs/chat/feedback", json={"messageId": answered["id"], "rating": "down"}).status_code == 200

        row = operator.get("/admin/api/feedback").json()["feedback"][0]
        assert row["question"] == FOLLOW_UP
        tested = operator.get("/admin/api/test", params={"q": row["question"], "message_id": row["message_id"]}).json()
        assert tested["history"] == [FIRST]
        assert tested["would_answer"] == answered["would_answer"]
        assert tested["standalone"]["method"] == "completed" and "sync" in tested["standalone"]["query"], tested["standalone"]
        assert tested["audiences"] == ["public"]  # the visitor's, not every audience

        alone = operator.get("/admin/api/test", params={"q": row["question"]}).json()
        assert alone["history"] == [] and alone["standalone"]["method"] == "as_asked"

        missing = operator.get("/admin/api/test", params={"q": "x", "message_id": 999999999})
        assert missing.status_code == 404


def test_feedback_rows_carry_the_answer_as_plain_text(admin_env, start_server) -> None:  # noqa: F811
    import uuid

    from tests.test_admin import query

    server = start_server()
    session = uuid.uuid4()
    query(admin_env, "insert into public.docs_chat_session (id, audiences) values ($1, '{public}')", session)
    query(admin_env, "insert into public.docs_chat_message (session_id, role, content) values ($1, 'user', 'q?')", session)
    answer = query(admin_env, "insert into public.docs_chat_message (session_id, role, content) values ($1, 'assistant', $2)"
                              " returning id", session,
                   "Run it [1]:\n\n```bash\ndocschat sync\n```\n\nIt skips **unchanged** `chunks`.")[0]["id"]
    query(admin_env, "insert into public.docs_chat_feedback (message_id, rating) values ($1, -1)", answer)
    with httpx.Client(base_url=server.url, timeout=30, headers=auth()) as operator:
        row = operator.get("/admin/api/feedback").json()["feedback"][0]
    assert row["answer_text"] == "Run it [1]: docschat sync It skips unchanged chunks."
    assert "```" in row["answer"]  # the stored answer is unchanged
