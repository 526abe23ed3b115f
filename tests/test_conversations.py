"""Conversations: standalone queries, eval with history, bounded injection and the model's search tool.

Real Postgres, the real app over HTTP, the real google-genai client against tests/fake_gemini.py.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any, cast

import httpx
import pytest

from app.chat.answerers import GeminiAnswerer, SourcesFound
from app.chat.excerpts import (
    CUT_MARK,
    ExcerptBounds,
    cut_at_boundaries,
    select_excerpts,
)
from app.chat.tools import SearchDocsTool, ToolBox
from app.config import Settings, get_settings
from app.corpus.compose import compose_files
from app.db.pool import create_pool
from app.embeddings.gemini import make_client
from app.embeddings.providers import get_embedding_provider
from app.search.chunk_text import chunk_blocks
from app.search.conversation import retrieve_in_conversation
from app.search.eval import EvalFileError, evaluate, load_eval_file
from app.search.retrieve import build_retriever
from app.search.rewrite import GeminiQueryRewriter
from app.search.standalone import dependency_cue, standalone_query
from tests.helpers import CliRun, docschat_in_process, parse_sse, sync_chunks

BASE = "http://127.0.0.1:8000"
LONG_CODE = "```bash\n" + "\n".join(f"docschat step-{i} --flag value-{i}" for i in range(60)) + "\n```"
DOCS = {
    "domains.mdx": (
        "---\ntitle: Custom domains\npublic: true\n---\nServe the docs from your own custom domain.\n\n"
        "## Add a custom domain\nIn the dashboard, add the custom domain and create a CNAME record that "
        "points at the docs host.\n\n## Propagation\nDNS changes propagate within 48 hours; the TLS "
        "certificate is issued right after the records resolve.\n"
    ),
    "builds.mdx": (
        "---\ntitle: Builds\npublic: true\n---\nEvery push starts a build.\n\n## Build time\nA build can take "
        "a long time for large sites; builds work in the background and take about two minutes.\n"
    ),
    "widget.mdx": (
        "---\ntitle: Chat widget\npublic: true\n---\nThe widget adds a chat panel to any docs site.\n\n"
        "## Embed the widget\nAdd one script tag to your pages; the script loads widget.js from your server.\n"
    ),
    "billing.mdx": (
        "---\ntitle: Billing\npublic: true\n---\nPlans and invoices.\n\n## Download invoices\nInvoices are "
        "emailed monthly; download past invoices as PDF from the billing settings.\n"
    ),
    "cli.mdx": (
        "---\ntitle: Command line\npublic: true\n---\nThe command line runs every step.\n\n## Steps\n"
        + "Each step runs in order. " * 30 + "\n\n" + "A second paragraph about steps. " * 30 + "\n\n"
        + LONG_CODE + "\n\nAfter the steps, check the output.\n"
    ),
}


async def seed_into(pool, extra: dict[str, str] | None = None) -> None:
    """Index DOCS (and `extra` pages) with whatever embedding provider the environment selects."""
    get_settings.cache_clear()
    settings = get_settings()
    await sync_chunks(pool, compose_files(DOCS | (extra or {}), settings), get_embedding_provider(settings))


def seed(database_url: str) -> None:
    async def go() -> None:
        pool = await create_pool(database_url)
        try:
            await seed_into(pool)
        finally:
            await pool.close()

    asyncio.run(go())


@pytest.fixture
def offline(offline):
    """conftest's offline setting, with this module's DOCS indexed."""
    seed(offline)
    return offline


def chat(client: httpx.Client, message: str) -> list[dict]:
    response = client.post("/docs/chat", json={"message": message})
    assert response.status_code == 200, response.text
    return [p for p in parse_sse(response.text) if isinstance(p, dict)]


def source_urls(parts: list[dict]) -> list[str]:
    return [p["url"] for p in parts if p["type"] == "source-url"]


# --- the standalone query (pure) -----------------------------------------------------------------


def test_cues_tell_follow_ups_from_questions_that_stand_alone() -> None:
    assert dependency_cue("and how long does it take?") == "weak"
    assert dependency_cue("What about subdomains?") == "strong"
    assert dependency_cue("why?") == "strong"
    assert dependency_cue("Also, what properties does the tooltip take?") == "weak"
    assert dependency_cue("Can I password-protect one?") == "weak"
    assert dependency_cue("How do I embed the chat widget?") == "none"


def test_standalone_query_carries_the_topic_through_a_chain() -> None:
    first = "How do I add a custom domain?"
    follow = standalone_query("and how long does it take to work?", [first])
    assert follow.carried == ("add", "custom", "domain") and "custom domain" in follow.query
    again = standalone_query("what if it fails?", [first, "and how long does it take to work?"])
    assert {"custom", "domain"} <= set(again.carried)
    alone = standalone_query("How do I embed the widget?", [])
    assert alone.query == "How do I embed the widget?" and not alone.completed


# --- follow-ups and topic switches through POST /docs/chat ------------------------------------------


def test_follow_up_in_a_session_finds_the_page_the_words_alone_do_not(offline, start_server) -> None:
    server = start_server()
    follow_up = "and how long does it take to work?"
    with httpx.Client(base_url=server.url, timeout=30) as fresh:
        alone = source_urls(chat(fresh, follow_up))
    assert not any("/docs/domains" in u for u in alone)
    with httpx.Client(base_url=server.url, timeout=30) as client:
        first = source_urls(chat(client, "How do I add a custom domain?"))
        assert first[0].startswith(f"{BASE}/docs/domains")
        followed = source_urls(chat(client, follow_up))
    assert followed and followed[0].startswith(f"{BASE}/docs/domains")


def test_topic_switch_is_not_polluted_by_the_conversation(offline, start_server) -> None:
    server = start_server()
    switch = "How do I embed the chat widget with a script tag?"
    with httpx.Client(base_url=server.url, timeout=30) as fresh:
        alone = source_urls(chat(fresh, switch))
    with httpx.Client(base_url=server.url, timeout=30) as client:
        chat(client, "How do I add a custom domain?")
        switched = source_urls(chat(client, switch))
    assert switched == alone and switched[0].startswith(f"{BASE}/docs/widget")
    assert not any("/docs/domains" in u for u in switched)


async def test_search_explains_the_query_it_used(offline, pool) -> None:
    retriever = build_retriever(pool, get_settings())
    retrieval = await retrieve_in_conversation(
        retriever, "and how long does it take to work?", ["How do I add a custom domain?"]
    )
    data = retrieval.to_dict()
    assert data["question"] == "and how long does it take to work?"
    assert data["query"] == "and how long does it take to work? (add custom domain)"
    assert data["standalone"]["method"] == "completed" and data["standalone"]["cue"] == "weak"


def test_ask_session_continues_a_conversation(offline) -> None:
    env = {"DATABASE_URL": offline, "EMBEDDING_PROVIDER": "none"}

    def ask(*args: str) -> CliRun:
        return docschat_in_process("ask", *args, env=env)

    first = ask("How do I add a custom domain?")
    assert first.returncode == 0, first.stderr
    session = first.stderr.split("--session ", 1)[1].split()[0]
    followed = ask("--session", session, "and how long does it take to work?")
    assert followed.returncode == 0, followed.stderr
    guides = followed.stdout.split("Summary", 1)[0]
    assert "Custom domains" in guides and "Builds" not in guides.split("\n")[1]
    bad = ask("--session", "nope", "hello")
    assert bad.returncode == 2 and "--session must be a session id" in bad.stderr


# --- eval with history -----------------------------------------------------------------------------


async def test_eval_lines_with_history_search_as_the_chat_does(offline, pool, tmp_path: Path) -> None:
    path = tmp_path / "conversations.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in [
        {"history": ["How do I add a custom domain?"], "question": "and how long does it take to work?",
         "gold": [f"{BASE}/docs/domains#propagation"]},
        {"history": ["How do I add a custom domain?"], "question": "How do I embed the chat widget?",
         "gold": [f"{BASE}/docs/widget#embed-the-widget"]},
    ]))
    items = load_eval_file(path)
    retriever = build_retriever(pool, get_settings())
    with_history = await evaluate(retriever, items, mode="hybrid", k=3, base_url=BASE)
    without = await evaluate(retriever, items, mode="hybrid", k=3, base_url=BASE, use_history=False)
    assert [q["page_recall"] for q in cast(list[dict[str, Any]], with_history["per_question"])] == [1.0, 1.0]
    assert [q["page_recall"] for q in cast(list[dict[str, Any]], without["per_question"])] == [0.0, 1.0]
    assert with_history["per_question"][1]["query"] == "How do I embed the chat widget?"
    path.write_text(json.dumps({"history": "not a list", "question": "q", "gold": ["https://x.test/u"]}))
    with pytest.raises(EvalFileError, match="'history' must be a list"):
        load_eval_file(path)


# --- bounded injection ---------------------------------------------------------------------------


def test_cut_keeps_whole_blocks_and_never_cuts_a_fence() -> None:
    text = "First paragraph.\n\n" + LONG_CODE + "\n\nLast paragraph."
    for limit in range(20, len(text) + 10, 37):
        cut = cut_at_boundaries(text, limit)
        assert len(cut) <= limit or cut == text
        assert cut.count("```") % 2 == 0  # a fence is either whole or absent
        for block in chunk_blocks(cut):
            if block.kind == "code":
                assert block.text == LONG_CODE
    assert cut_at_boundaries(text, 40) == "First paragraph." + CUT_MARK
    assert cut_at_boundaries(text, len(text)) == text


async def test_injection_bounds_count_sections_and_characters(offline, pool) -> None:
    retriever = build_retriever(pool, get_settings())
    retrieval = await retriever.retrieve("steps paragraph output command line domain widget invoices build")
    for bounds in (ExcerptBounds(4, None, 7000), ExcerptBounds(2, None, 700), ExcerptBounds(4, None, 300)):
        excerpts = select_excerpts(retrieval, bounds, BASE)
        assert 1 <= len(excerpts) <= bounds.max_excerpts
        assert sum(len(e.text) for e in excerpts) <= bounds.max_chars
        for excerpt in excerpts:
            assert excerpt.text.count("```") % 2 == 0
    assert Settings().chat_max_excerpts == 4 and Settings().chat_max_excerpt_chars == 7000


# --- the model's search tool ------------------------------------------------------------------------


def _function_responses(body: dict) -> list[dict]:
    return [p["functionResponse"] for c in body["contents"] for p in c["parts"] if "functionResponse" in p]


def test_tool_call_round_trips_with_sources_streamed_first(fake_gemini, clean_db, start_server) -> None:
    seed(clean_db)
    fake_gemini.replies = [
        [{"functionCall": {"name": "search_docs", "args": {"query": "download invoices billing"}}}],
        [{"text": "Download them from billing settings "}, {"text": "[4]."}],
    ]
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        parts = chat(client, "How do I embed the widget with a script tag?")
    kinds = [p["type"] for p in parts]
    guides = [p for p in parts[: kinds.index("text-start")] if p["type"] == "source-url"]
    assert guides and all("/docs/billing" not in p["url"] for p in guides)
    found = [i for i, p in enumerate(parts) if p["type"] == "source-url" and "/docs/billing" in p["url"]]
    first_delta = kinds.index("text-delta")
    assert found and found[0] < first_delta  # the tool's page is listed before the text that uses it
    assert parts[found[0]]["sourceId"] == f"source-{len(guides) + 1}"
    assert "".join(p["delta"] for p in parts if p["type"] == "text-delta") == "Download them from billing settings [4]."
    assert kinds[-1] == "finish"
    calls = fake_gemini.generate_calls()
    assert len(calls) == 2
    declared = calls[0]["body"]["tools"][0]["functionDeclarations"]
    assert [d["name"] for d in declared] == ["search_docs"]
    (response,) = _function_responses(calls[1]["body"])
    assert response["name"] == "search_docs" and response["response"]["available"] is True
    assert any("Invoices are emailed monthly" in r["text"] for r in response["response"]["results"])
    model_turn = calls[1]["body"]["contents"][-2]
    assert model_turn["role"] == "model" and model_turn["parts"][0]["functionCall"]["name"] == "search_docs"


async def _answer_with_tools(fake_gemini, pool, settings: Settings, replies: list[list[dict]]) -> list:
    fake_gemini.replies = replies
    answerer = GeminiAnswerer(make_client("test-key", fake_gemini.url), "gemini-test")
    retriever = build_retriever(pool, settings)
    tool = SearchDocsTool(retriever, ExcerptBounds(), BASE, {})
    box = ToolBox([tool], max_calls=settings.chat_tool_calls_per_turn, timeout_seconds=settings.chat_tool_timeout_seconds)
    return [event async for event in answerer.stream("How do I embed the widget?", [], [], box)]


def _search_call(query: str) -> list[dict]:
    return [{"functionCall": {"name": "search_docs", "args": {"query": query}}}]


async def test_tool_timeout_and_unavailable_index_are_truthful(fake_gemini, clean_db, pool) -> None:
    await seed_into(pool)
    async with pool.acquire() as blocker, blocker.transaction():
        await blocker.execute("lock table public.docs_section in access exclusive mode")
        # The tool's own bound: the search waits on the lock longer than the tool may take.
        slow = Settings(chat_tool_timeout_seconds=0.3, leg_timeout_seconds=30, embedding_provider="none")
        await _answer_with_tools(fake_gemini, pool, slow, [_search_call("invoices"), [{"text": "Sorry."}]])
        (timed_out,) = _function_responses(fake_gemini.generate_calls()[-1]["body"])
        assert timed_out["response"] == {"available": False, "status": "timed out after 0.3 s"}
        # Every leg fails within the tool's time: the index cannot answer.
        down = Settings(chat_tool_timeout_seconds=10, leg_timeout_seconds=0.2, embedding_provider="none")
        await _answer_with_tools(fake_gemini, pool, down, [_search_call("invoices"), [{"text": "Sorry."}]])
        (unavailable,) = _function_responses(fake_gemini.generate_calls()[-1]["body"])
        assert unavailable["response"]["available"] is False
        assert "cannot be searched" in unavailable["response"]["status"]


async def test_at_most_three_searches_a_turn(fake_gemini, clean_db, pool) -> None:
    await seed_into(pool)
    settings = Settings(embedding_provider="none")
    events = await _answer_with_tools(
        fake_gemini, pool, settings,
        [_search_call("invoices"), _search_call("widget"), _search_call("builds"), _search_call("domains"),
         [{"text": "never reached"}]],
    )
    calls = fake_gemini.generate_calls()
    assert len(calls) == 4  # three searches, then one step offered no tools
    assert len(_function_responses(calls[-1]["body"])) == 3
    assert calls[-1]["body"]["toolConfig"]["functionCallingConfig"]["mode"] == "NONE"
    assert calls[0]["body"]["toolConfig"]["functionCallingConfig"]["mode"] == "AUTO"
    numbers = [s.number for e in events if isinstance(e, SourcesFound) for s in e.sources]
    assert numbers == list(range(1, len(numbers) + 1))  # new pages continue one numbering
    # Calls made together in one step count one by one: the fourth is refused, truthfully.
    fake_gemini.requests.clear()
    await _answer_with_tools(
        fake_gemini, pool, settings,
        [_search_call("invoices") + _search_call("widget"), _search_call("builds") + _search_call("domains"),
         [{"text": "done"}]],
    )
    calls = fake_gemini.generate_calls()
    responses = _function_responses(calls[-1]["body"])
    assert len(calls) == 3 and [r["response"]["available"] for r in responses] == [True, True, True, False]
    assert "limit of 3 calls" in responses[-1]["response"]["status"]


async def test_two_questions_in_flight_in_one_session_each_see_only_what_came_before(
    fake_gemini, clean_db, pool
) -> None:
    """History was "the session's messages but the newest", the newest taken to be this question:
    with two asked at once (two tabs, a double send) a turn was given the other one, and its own
    question, as earlier conversation."""
    from app.chat.turn import ChatServices, start_turn

    await seed_into(pool)
    settings = Settings(embedding_provider="none")
    answerer = GeminiAnswerer(make_client("test-key", fake_gemini.url), "gemini-test")
    services = ChatServices(pool, settings, build_retriever(pool, settings), answerer)
    first = await start_turn(services, None, "How do I add a custom domain?", ["public"])
    _ = [part async for part in first.parts()]
    await first.save()
    one = await start_turn(services, first.session_id, "How long does DNS propagation take?", ["public"])
    two = await start_turn(services, first.session_id, "How do I download invoices?", ["public"])
    fake_gemini.requests.clear()
    _ = [part async for part in one.parts()]
    (call,) = fake_gemini.generate_calls()
    said = [" ".join(p.get("text", "") for p in c["parts"]) for c in call["body"]["contents"]]
    assert sum("How do I add a custom domain?" in text for text in said) == 1
    assert sum("DNS propagation" in text for text in said) == 1  # the question itself, once
    assert not any("invoices" in text for text in said)
    await one.save()
    await two.save()


# --- the Gemini rewrite ----------------------------------------------------------------------------


async def test_gemini_rewrite_is_used_and_falls_back_offline(fake_gemini, clean_db, pool) -> None:
    await seed_into(pool)
    retriever = build_retriever(pool, get_settings())
    rewriter = GeminiQueryRewriter(make_client("test-key", fake_gemini.url), "gemini-test", timeout_seconds=5)
    history = ["How do I add a custom domain?"]
    fake_gemini.generate_text = "custom domain DNS propagation time"
    rewritten = await retrieve_in_conversation(retriever, "and how long does it take?", history, rewriter=rewriter)
    assert rewritten.standalone["method"] == "rewritten:gemini"
    assert rewritten.question == "custom domain DNS propagation time"
    prompt = json.dumps(fake_gemini.plain_generate_calls()[-1]["body"])
    assert "How do I add a custom domain?" in prompt and "and how long does it take?" in prompt
    fake_gemini.generate_text = None  # the endpoint now fails: the offline method decides
    attempts = len(fake_gemini.plain_generate_calls())
    offline = await retrieve_in_conversation(retriever, "and how long does it take?", history, rewriter=rewriter)
    assert len(fake_gemini.plain_generate_calls()) == attempts + 1
    assert offline.standalone["cue"] == "weak" and offline.standalone["carried"] == ["add", "custom", "domain"]
    assert offline.standalone is not None
    assert offline.standalone["method"] in {"completed", "as_asked"} and "evidence" in offline.standalone


async def test_a_question_with_nothing_pointing_back_is_not_rewritten(fake_gemini, clean_db, pool) -> None:
    """Issue 45: a question that stands alone is searched exactly as asked, whatever came before;
    no model rewrites it with the earlier turns' words."""
    await seed_into(pool)
    retriever = build_retriever(pool, get_settings())
    rewriter = GeminiQueryRewriter(make_client("test-key", fake_gemini.url), "gemini-test", timeout_seconds=5)
    fake_gemini.generate_text = "custom domain invoices"
    retrieval = await retrieve_in_conversation(retriever, "Where do I download past invoices?",
                                               ["How do I add a custom domain?"], rewriter=rewriter)
    assert retrieval.question == "Where do I download past invoices?" and retrieval.standalone["method"] == "as_asked"
    assert not fake_gemini.plain_generate_calls()


def test_a_new_topic_opening_with_and_is_judged_by_evidence(fake_gemini, clean_db, start_server) -> None:
    """With vectors, "And …" does not force the old topic in: the question alone matches better."""
    seed(clean_db)
    server = start_server()
    switch = "And how do I embed the chat widget with a script tag?"
    with httpx.Client(base_url=server.url, timeout=30) as fresh:
        alone = source_urls(chat(fresh, switch))
    with httpx.Client(base_url=server.url, timeout=30) as client:
        chat(client, "How do I add a custom domain?")
        switched = source_urls(chat(client, switch))
    assert switched == alone and not any("/docs/domains" in u for u in switched)
    # The rewrite was tried (the fake has no generateContent by default) and the offline method took over.
    assert fake_gemini.plain_generate_calls()


async def test_model_steps_are_bounded_too(fake_gemini, clean_db, pool) -> None:
    """A ToolBox may allow fewer model steps than calls (issue 14 bounds steps): the last step is offered no tools."""
    await seed_into(pool)
    fake_gemini.replies = [_search_call("invoices"), _search_call("widget"), [{"text": "done"}]]
    answerer = GeminiAnswerer(make_client("test-key", fake_gemini.url), "gemini-test")
    tool = SearchDocsTool(build_retriever(pool, Settings(embedding_provider="none")), ExcerptBounds(), BASE, {})
    box = ToolBox([tool], max_calls=3, timeout_seconds=5, max_steps=2)
    events = [event async for event in answerer.stream("How do I embed the widget?", [], [], box)]
    calls = fake_gemini.generate_calls()
    assert len(calls) == 2 and box.calls == 1
    assert calls[-1]["body"]["toolConfig"]["functionCallingConfig"]["mode"] == "NONE"
    assert not [e for e in events if isinstance(e, str)]  # the fake's second step was a call, never run


async def test_search_tool_obeys_the_floor_and_the_public_flag(fake_gemini, clean_db, pool) -> None:
    private = {"runbook.mdx": "---\ntitle: Refund runbook\npublic: false\n---\n## Refunds\n"
                              "Issue refunds from the admin console after checking the refund runbook.\n"}
    await seed_into(pool, private)
    settings = get_settings()

    async def search(query: str, **changes: object) -> dict:
        tool = SearchDocsTool(build_retriever(pool, settings.model_copy(update=changes)), ExcerptBounds(), BASE, {})
        return (await tool.call({"query": query})).response

    everything = await search("refunds admin console refund runbook")
    assert any("/docs/runbook" in r["url"] for r in everything["results"])
    public = await search("refunds admin console refund runbook", flag_public=True)
    assert not any("/docs/runbook" in r["url"] for r in public["results"])
    nonsense = await search("xyzzy plugh qwertyuiop")
    assert nonsense == {"available": True, "status": "nothing in the documentation matches", "results": []}


# --- a question that stands alone is searched as asked, whatever came before (issues 30, 31) --------

# Topic switches written for this test (not the dev conversations): after a widget question, an
# off-topic one and another in-domain one. Each must be searched exactly as asked.
SWITCHES = [
    ("How do I embed the widget on my site?", "What's a good recipe for banana bread?", None),
    ("How do I embed the widget on my site?", "Who won the football World Cup in 2014?", None),
    ("How do I add a custom domain?", "Where do I download past invoices?", "/docs/billing"),
    ("Where do I download past invoices?", "How long does a build take?", "/docs/builds"),
]


@pytest.fixture
def local_model(monkeypatch, clean_db):
    """The real offline model: the vector leg's evidence is what completed the switch (issue 30)."""
    from app.embeddings.local import local_model_installed

    if not local_model_installed():
        pytest.skip("the offline model (docschat[local]) is not installed")
    monkeypatch.setenv("EMBEDDING_PROVIDER", "local")
    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "100")
    get_settings.cache_clear()
    seed(clean_db)
    return clean_db


@pytest.mark.parametrize(("earlier", "question", "page"), SWITCHES)
async def test_a_question_that_stands_alone_is_never_completed(local_model, pool, earlier, question, page) -> None:
    retriever = build_retriever(pool, get_settings())
    await retriever.warm_up()
    retrieval = await retrieve_in_conversation(retriever, question, [earlier])
    alone = await retrieve_in_conversation(retriever, question, [])
    assert retrieval.question == question and retrieval.standalone["method"] == "as_asked"
    assert [p.page for p in retrieval.pages] == [p.page for p in alone.pages]
    assert retrieval.would_answer == alone.would_answer == (page is not None)
    if page:
        assert retrieval.pages[0].href.startswith(page)


def test_a_topic_switch_to_off_topic_is_refused_and_recorded_as_asked(local_model, start_server) -> None:
    """The issue's case: the gap was stored as "…banana bread? (embed widget site)"."""
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=60) as client:
        first = chat(client, "How do I embed the widget on my site?")
        assert source_urls(first)[0].startswith(f"{BASE}/docs/widget")
        parts = chat(client, "What's a good recipe for banana bread?")
    assert source_urls(parts) == []
    deadline = time.monotonic() + 10
    while True:
        async_rows = asyncio.run(_gap_questions(local_model))
        if async_rows or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert async_rows == ["What's a good recipe for banana bread?"]


async def _gap_questions(database_url: str) -> list[str]:
    import asyncpg

    conn = await asyncpg.connect(database_url)
    try:
        return [r["question"] for r in await conn.fetch("select question from docs_chat_gap order by question")]
    finally:
        await conn.close()


def test_unseen_conversations_have_gold_and_a_third_are_topic_switches() -> None:
    data = Path(__file__).parent / "data"
    lines = [json.loads(line) for corpus in ("mintlify", "claude", "ray")
             for line in (data / f"conversations-unseen-{corpus}.jsonl").read_text().splitlines()]
    assert len(lines) >= 30 and all(line["history"] for line in lines)
    switches = [line for line in lines if line["kind"] == "topic-switch"]
    assert len(switches) * 3 >= len(lines)
    assert any(line["gold"] for line in switches) and any(line.get("unanswerable") == "offtopic" for line in switches)
    assert all(line["gold"] or line.get("unanswerable") == "offtopic" for line in lines)
