"""The demo's own docs (docs/ of this repository), asked as a visitor asks them (issue 45): the real
app over HTTP, the real offline model, a real Postgres. Each question is answered with its fact by
the offline answerer, and a question that stands alone is searched as asked whatever came before.
"""

from __future__ import annotations

import asyncio

import httpx
import pytest

from app.config import get_settings
from tests.conftest import REPO_ROOT
from tests.helpers import seed_docs, wait_until
from tests.test_conversations import chat, source_urls

# Question → what its Summary must quote (the docs' own words).
FACTS = {
    "What does docschat store about me?": ["**Chat history**", "Raw IP addresses are never stored"],
    "How many questions can a visitor ask per hour?": ["5 questions an hour and 10 a day"],
    "How do I connect Claude Desktop to docschat?": ["claude_desktop_config.json", '{"mcpServers"'],
    "How do I embed the widget?": ['<script src="https://HOST/docs/chat/widget.js"'],
    "Is my IP address stored?": ["Raw IP addresses are never stored or logged"],
}
# (an earlier, unrelated question, a question that stands alone): the second is searched as asked.
SWITCHES = [
    ("How do I connect Claude Desktop to docschat?", "Is my IP address stored?"),
    ("How do I embed the widget?", "How many questions can a visitor ask per hour?"),
    ("What does docschat store about me?", "How do I embed the widget on my site?"),
    ("How do I run a sync in CI?", "What does docschat store about me?"),
    ("Is my IP address stored?", "How do I connect Claude Desktop to docschat?"),
]
OFF_TOPIC = "How do I reverse a linked list in Java?"
# (a question, its follow-up about the same page, what the follow-up's Summary must quote, what it
# must not): issue 45 found the follow-up answered with the first question's script tag again.
FOLLOW_UPS = [
    ("How do I embed the widget?", "and how do I change its colour?", "--dc-accent", "widget.js"),
]

@pytest.fixture
def demo_docs(monkeypatch, clean_db):
    """docs/ of this repository, public as the demo serves it, embedded by the offline model."""
    from app.embeddings.local import local_model_installed

    if not local_model_installed():
        pytest.skip("the offline model (docschat[local]) is not installed")
    monkeypatch.setenv("EMBEDDING_PROVIDER", "local")
    monkeypatch.setenv("DOCS_DEFAULT_AUDIENCE", "public")
    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "100")
    monkeypatch.setenv("RATE_LIMIT_PER_DAY", "1000")
    get_settings.cache_clear()
    root = REPO_ROOT / "docs"
    files = {str(p.relative_to(root)): p.read_text(encoding="utf-8")
             for p in sorted(root.rglob("*")) if p.is_file() and p.suffix in (".md", ".mdx")}
    seed_docs(clean_db, files)
    return clean_db

def summary(parts: list[dict]) -> str:
    return "".join(p["delta"] for p in parts if p["type"] == "text-delta")

def test_the_demos_questions_are_answered_with_their_facts(demo_docs, start_server) -> None:
    server = start_server()
    for question, facts in FACTS.items():
        with httpx.Client(base_url=server.url, timeout=60) as client:
            parts = chat(client, question)
        text = summary(parts)
        assert source_urls(parts), (question, text)
        for fact in facts:
            assert fact in text, (question, fact, text)
        assert "does not mention" not in text, (question, text)
    with httpx.Client(base_url=server.url, timeout=60) as client:
        parts = chat(client, OFF_TOPIC)
    assert source_urls(parts) == [] and "doesn't cover" in summary(parts)

def test_a_question_that_stands_alone_is_searched_as_asked_after_any_history(demo_docs, start_server) -> None:
    """5 of 5 switches: the same guides and Summary as in a fresh session, and the gap, if any, in
    the question's own words (the gaps once showed "Is my IP address stored? (connect claude
    desktop docschat)")."""
    server = start_server()
    for earlier, question in SWITCHES:
        with httpx.Client(base_url=server.url, timeout=60) as fresh:
            alone = chat(fresh, question)
        with httpx.Client(base_url=server.url, timeout=60) as client:
            chat(client, earlier)
            after = chat(client, question)
        assert source_urls(after) == source_urls(alone), (earlier, question)
        assert summary(after) == summary(alone), (earlier, question)
    # Answered below the low-confidence line, it is a gap: stored as asked, never as the completion.
    questions = wait_until(lambda: asyncio.run(_gap_questions(demo_docs)) or None, what="a gap", timeout=10)
    assert "Is my IP address stored?" in questions and not [q for q in questions if "(" in q], questions

def test_a_follow_up_on_the_same_page_quotes_what_it_asks_not_the_first_answer(demo_docs, start_server) -> None:
    server = start_server()
    for first, follow_up, fact, earlier_answer in FOLLOW_UPS:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            assert earlier_answer in summary(chat(client, first))
            text = summary(chat(client, follow_up))
        assert fact in text and earlier_answer not in text, (follow_up, text)

async def _gap_questions(database_url: str) -> list[str]:
    import asyncpg

    conn = await asyncpg.connect(database_url)
    try:
        return [r["question"] for r in await conn.fetch("select question from docs_chat_gap")]
    finally:
        await conn.close()
