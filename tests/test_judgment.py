"""Judgment: the confidence and its floor, refusal in the chat, gaps, eval with unanswerable lines,
and the first question after start-up (real Postgres, real HTTP, the real offline model)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import httpx
import pytest

from app.chat.answerers import NOT_COVERED
from app.chat.gaps import BadDuration, clear_gaps, list_gaps, parse_since
from app.config import get_settings
from app.judge.confidence import Evidence, Floors, floors_from_settings, judge, scaled_cosine
from app.search.eval import EvalFileError, evaluate, load_eval_file
from app.search.retrieve import build_retriever
from tests.helpers import CliRun, docschat_in_process, parse_sse, seed_docs
from tests.test_chat import DOCS, ask

MINILM = "all-MiniLM-L6-v2@384-padded-768"


def seed(database_url: str) -> None:
    """The chat tests' three pages, synced with the provider the environment selects."""
    seed_docs(database_url, DOCS)


# --- the confidence (pure) -------------------------------------------------------------------------


def test_nonsense_evidence_is_refused_and_on_topic_evidence_answered() -> None:
    nonsense = judge(Evidence(best_cosine=0.2, coverage=0.0, matched_idf=0.0, specific_idf=7.0, legs_agree=False,
                              model=MINILM))
    assert not nonsense.would_answer and nonsense.confidence < nonsense.floor
    on_topic = judge(Evidence(best_cosine=0.62, coverage=0.7, matched_idf=12.0, specific_idf=7.0, legs_agree=True,
                              model=MINILM))
    assert on_topic.would_answer and on_topic.confidence > 0.8 and on_topic.rule == "hybrid"
    assert set(on_topic.explanation) >= {"best_cosine", "scaled_cosine", "coverage", "specific_coverage", "legs_agree"}


def test_cosine_scale_is_per_model_and_unknown_models_get_the_strict_one() -> None:
    # 0.45 is a good match for MiniLM and an unrelated one for Gemini.
    assert scaled_cosine(0.45, MINILM) > 0.6
    assert scaled_cosine(0.45, "gemini-embedding-001") == 0.0
    assert scaled_cosine(0.45, "some-new-model") == 0.0
    same = Evidence(best_cosine=0.5, coverage=0.3, matched_idf=8.0, specific_idf=7.0, legs_agree=False)
    assert judge(replace(same, model=MINILM)).would_answer
    assert not judge(replace(same, model="gemini-embedding-001")).would_answer


def test_cosine_scale_setting_replaces_the_models(monkeypatch) -> None:
    evidence = Evidence(best_cosine=0.3, coverage=0.3, matched_idf=8.0, specific_idf=7.0, legs_agree=False,
                        model="some-new-model")
    assert not judge(evidence).would_answer  # unknown model: the strict scale
    assert judge(evidence, Floors(cosine_scale=(0.05, 0.35))).would_answer
    monkeypatch.setenv("COSINE_SCALE", "0.05, 0.35")
    get_settings.cache_clear()
    assert floors_from_settings(get_settings()).cosine_scale == (0.05, 0.35)
    monkeypatch.setenv("COSINE_SCALE", "0.6,0.5")
    result = docschat_in_process("search", "x")
    assert result.returncode == 1 and "COSINE_SCALE" in result.stderr and "unrelated < related" in result.stderr


def test_common_words_alone_are_weak_evidence() -> None:
    # "thanks, that was helpful": every word is in the docs, but each in many sections.
    chit_chat = Evidence(coverage=1.0, matched_idf=2.0, specific_idf=7.0)
    specific = Evidence(coverage=1.0, matched_idf=9.0, specific_idf=7.0)
    assert judge(chit_chat).confidence == pytest.approx(2.0 / 7.0, abs=1e-3)
    assert not judge(chit_chat).would_answer and judge(specific).would_answer


def test_legs_agreeing_on_a_page_the_vector_leg_finds_unrelated_is_not_evidence() -> None:
    # Small talk ("Hello, how are you today?") matches common words everywhere: full coverage, and
    # both legs' top pages can share one. With agreement counted whole, coverage and agreement alone
    # (0.30 + 0.15) reached the floor (0.45) whatever the cosine; now agreement counts as far as
    # the cosine says the page is related.
    small_talk = Evidence(best_cosine=0.23, coverage=1.0, matched_idf=7.1, specific_idf=7.4, legs_agree=True,
                          model=MINILM)
    judged = judge(small_talk)
    assert not judged.would_answer and judged.confidence < judged.floor, judged
    # Agreement still counts on a related page: the same evidence with a good cosine is answered,
    # and agreeing legs give more confidence than disagreeing ones.
    related = replace(small_talk, best_cosine=0.5)
    assert judge(related).would_answer
    assert judge(related).confidence > judge(replace(related, legs_agree=False)).confidence


def test_keyword_only_has_its_own_rule_and_floor() -> None:
    assert judge(Evidence(coverage=0.0, matched_idf=0.0, specific_idf=7.0)).rule == "keyword_only"
    assert not judge(Evidence(coverage=0.0, matched_idf=0.0, specific_idf=7.0)).would_answer
    half = Evidence(coverage=0.5, matched_idf=8.0, specific_idf=7.0)
    assert judge(half).would_answer  # default keyword floor 0.40
    assert not judge(half, Floors(keyword_answer_floor=0.6)).would_answer
    assert judge(half, Floors(answer_floor=0.9)).would_answer  # the hybrid floor does not apply


def test_floor_and_low_confidence_lines_are_settings() -> None:
    evidence = Evidence(best_cosine=0.45, coverage=0.6, matched_idf=8.0, specific_idf=7.0, legs_agree=True,
                        model=MINILM)
    default = judge(evidence)
    assert default.floor == 0.45 and default.low_confidence == pytest.approx(0.60)
    assert not judge(evidence, Floors(answer_floor=default.confidence + 0.01)).would_answer
    low = judge(evidence, Floors(low_confidence=0.99))
    assert low.would_answer and low.is_low
    assert judge(Evidence()).would_answer is False and judge(Evidence()).rule == "empty"


# --- the SQL evidence ------------------------------------------------------------------------------


async def test_term_coverage_is_the_matched_share_of_idf_weight(conn) -> None:
    from tests.test_search import add, refresh

    await add(conn, "keys.mdx#rotate", "Rotate an API key from the console", heading="Rotate keys")
    await add(conn, "limits.mdx#tiers", "Rate limits depend on the usage tier", heading="Tiers")
    for i in range(10):
        await add(conn, f"p{i}.mdx#s", f"The console shows page {i}", heading="Console")
    await refresh(conn)
    rows = await conn.fetch(
        "select * from docs_term_coverage('How do I rotate a key in the console?', "
        "array['keys.mdx#rotate', 'limits.mdx#tiers', 'p1.mdx#s'], null)"
    )
    by_id = {r["id"]: r for r in rows}
    assert [r["id"] for r in rows][0] == "keys.mdx#rotate" and by_id["keys.mdx#rotate"]["coverage"] == pytest.approx(1.0)
    assert by_id["limits.mdx#tiers"]["coverage"] == 0.0
    # "console" is in 11 of 12 sections: covering it alone is a small share of the weight.
    assert 0 < by_id["p1.mdx#s"]["coverage"] < 0.2
    assert by_id["keys.mdx#rotate"]["unseen_idf"] > by_id["keys.mdx#rotate"]["matched_idf"] / 3
    unknown = await conn.fetchrow(
        "select * from docs_term_coverage('rotate xyzzyplugh', array['keys.mdx#rotate'], null)"
    )
    assert 0.3 < unknown["coverage"] < 0.7  # the word no section holds weighs the most
    for text in ["", "???", "'; drop table docs_section; --", "x" * 5000]:
        await conn.fetch("select * from docs_term_coverage($1, array['keys.mdx#rotate'], null)", text)


# --- refusal through the real app ------------------------------------------------------------------


def _text(parts) -> str:
    return "".join(p["delta"] for p in parts if isinstance(p, dict) and p["type"] == "text-delta")


def _finish(parts) -> dict:
    return next(p for p in parts if isinstance(p, dict) and p["type"] == "finish")


def _gap_rows(database_url: str) -> list[dict]:
    async def go() -> list[dict]:
        import asyncpg

        conn = await asyncpg.connect(database_url)
        try:
            return [dict(r) for r in await conn.fetch("select * from docs_chat_gap order by question")]
        finally:
            await conn.close()

    return asyncio.run(go())


def _wait_for_gaps(database_url: str, count: int) -> list[dict]:
    deadline = time.monotonic() + 10
    while True:
        rows = _gap_rows(database_url)
        if len(rows) >= count or time.monotonic() > deadline:
            return rows
        time.sleep(0.05)



@pytest.mark.parametrize("question", ["xyzzy plugh", "What is the capital of France?"])
def test_nonsense_question_is_refused_without_guides_and_recorded(offline, start_server, question) -> None:
    seed(offline)
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        parts = parse_sse(ask(client, question).text)
    kinds = [p if isinstance(p, str) else p["type"] for p in parts]
    assert "source-url" not in kinds and kinds[-2:] == ["finish", "[DONE]"]
    assert _text(parts) == NOT_COVERED
    meta = _finish(parts)["messageMetadata"]
    assert meta["would_answer"] is False and meta["degraded"] == "keyword_only" and meta["confidence"] < 0.4
    rows = _wait_for_gaps(offline, 1)
    assert [r["question"] for r in rows] == [question] and rows[0]["refused"] and rows[0]["count"] == 1
    assert rows[0]["outcome"] == "refused_offtopic"  # below the floor: far from every page
    assert set(rows[0]) == {"question_key", "question", "count", "first_seen", "last_seen", "best_page", "confidence",
                            "refused", "outcome"}  # no IP, no session


def test_answerable_question_still_gets_guides_and_no_gap(offline, start_server) -> None:
    seed(offline)
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        parts = parse_sse(ask(client, "How do I embed the widget with a script tag?").text)
        sources = [p for p in parts if isinstance(p, dict) and p["type"] == "source-url"]
        assert sources and sources[0]["title"] == "Chat widget"
        assert _text(parts) != NOT_COVERED and _finish(parts)["messageMetadata"]["would_answer"] is True
    # A question the docs do not cover, after it (a new conversation): its gap shows gaps are recorded.
    with httpx.Client(base_url=server.url, timeout=30) as client:
        assert _text(parse_sse(ask(client, "xyzzy plugh").text)) == NOT_COVERED
    # A stopped server has finished storing every reply and gap (its shutdown waits for them).
    server.stop()
    assert [r["question"] for r in _gap_rows(offline)] == ["xyzzy plugh"]


def test_answer_below_the_low_confidence_line_is_recorded_as_a_gap(offline, start_server, monkeypatch) -> None:
    seed(offline)
    monkeypatch.setenv("KEYWORD_ANSWER_FLOOR", "0.05")
    monkeypatch.setenv("LOW_CONFIDENCE", "0.99")
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        # "blog" is in no page: the question is only partly covered, answered below the line.
        parts = parse_sse(ask(client, "How do I embed the widget on my blog?").text)
    assert _finish(parts)["messageMetadata"]["confidence"] < 0.99
    assert any(isinstance(p, dict) and p["type"] == "source-url" for p in parts)
    rows = _wait_for_gaps(offline, 1)
    assert len(rows) == 1 and rows[0]["refused"] is False and rows[0]["best_page"] == "widget.mdx"
    assert rows[0]["outcome"] == "answered"


def test_refusal_with_gemini_calls_no_model(fake_gemini, clean_db, start_server) -> None:
    seed(clean_db)
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        parts = parse_sse(ask(client, "What is the capital of France?").text)
    assert _text(parts) == NOT_COVERED and fake_gemini.generate_calls() == []
    assert not any(isinstance(p, dict) and p["type"] == "source-url" for p in parts)
    assert _finish(parts)["messageMetadata"] == {
        "confidence": _finish(parts)["messageMetadata"]["confidence"], "would_answer": False, "degraded": None
    }


def test_ask_cli_refuses_nonsense(offline) -> None:
    seed(offline)
    env = {"DATABASE_URL": offline, "EMBEDDING_PROVIDER": "none"}
    result = docschat_in_process("ask", "xyzzy plugh", env=env)
    assert result.returncode == 0, result.stderr
    assert "Relevant Guides" not in result.stdout and "doesn't cover" in result.stdout
    assert [r["question"] for r in _gap_rows(offline)] == ["xyzzy plugh"]


def test_search_json_carries_confidence_floor_and_explanation(offline) -> None:
    seed(offline)
    env = {"DATABASE_URL": offline, "EMBEDDING_PROVIDER": "none"}
    result = docschat_in_process("search", "xyzzy plugh", "--json", "--explain", env=env)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["would_answer"] is False and data["floor"] == 0.4 and data["confidence"] == 0.0
    assert data["explain"]["confidence"]["rule"] == "keyword_only"


# --- the first question ----------------------------------------------------------------------------


def _local_model_or_skip() -> None:
    from app.embeddings.local import local_model_installed

    if not local_model_installed():
        pytest.skip("the offline model (docschat[local]) is not installed")


@pytest.fixture
def unloaded_model(monkeypatch):
    """The offline model as in a fresh process on a busy machine: not loaded, and slow to load.
    unload() makes loading take 2 s; unload(gate) makes it wait until the test sets `gate`."""
    _local_model_or_skip()
    import app.embeddings.local as local

    real_load = local._load_model

    def unload(gate: threading.Event | None = None) -> None:
        def slow_load():  # loading takes longer than the question's timeout
            if local._model is None:
                if gate is None:
                    time.sleep(2)
                else:
                    assert gate.wait(120), "the test never let the model load"
            return real_load()

        monkeypatch.setattr(local, "_model", None)
        monkeypatch.setattr(local, "_load_model", slow_load)

    return unload


def test_first_question_after_start_is_not_degraded(monkeypatch, clean_db, start_server, unloaded_model) -> None:
    # Conditions, not durations: it failed under load when it relied on a 2 s load outlasting the
    # server's start (to see /healthz 503) and on the question arriving within it. Here the load
    # lasts until the question has waited longer than its embedding timeout.
    timeout = 2.0
    monkeypatch.setenv("EMBEDDING_PROVIDER", "local")
    monkeypatch.setenv("QUERY_EMBEDDING_TIMEOUT_SECONDS", str(timeout))  # loading takes longer; embedding does not
    get_settings.cache_clear()
    seed(clean_db)
    loaded = threading.Event()
    unloaded_model(loaded)  # the server must load it, and cannot until `loaded` is set
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=120) as client, ThreadPoolExecutor(1) as pool:
        health = client.get("/healthz")
        assert health.status_code == 503 and health.json()["ready"] is False
        asked = pool.submit(ask, client, "How do I embed the widget with a script tag?")
        with pytest.raises(FutureTimeout):  # the question waits for the model: it is still unanswered
            asked.result(timeout=timeout * 1.5)
        loaded.set()
        parts = parse_sse(asked.result(timeout=120).text)
        meta = _finish(parts)["messageMetadata"]
        assert meta["degraded"] is None and meta["would_answer"] is True
        assert client.get("/healthz").json()["ready"] is True


async def test_first_question_of_a_process_is_embedded_within_the_timeout(pool, unloaded_model) -> None:
    from tests.test_search import add, refresh

    async with pool.acquire() as conn:
        await add(conn, "a.mdx#embed", "Embed the widget with one script tag", heading="Embed")
        await refresh(conn)
    # The load outlasts the timeout by a margin; the timeout is generous for the embedding itself
    # (a 1 s one failed under load: the first encode after a load is slow on a busy machine).
    timeout = 3.0
    loaded = threading.Event()
    unloaded_model(loaded)
    settings = get_settings().model_copy(update={"embedding_provider": "local", "query_embedding_timeout_seconds": timeout})
    release = threading.Timer(timeout + 1, loaded.set)
    release.start()
    try:
        retrieval = await build_retriever(pool, settings).retrieve("embed the widget", mode="vector")
    finally:
        release.cancel()
        loaded.set()
    assert retrieval.degraded is None and "vector" in retrieval.legs and not retrieval.errors


# --- gaps ------------------------------------------------------------------------------------------


async def _record(conn, question: str, confidence: float = 0.1, refused: bool = True) -> int:
    return await conn.fetchval("select record_docs_chat_gap($1, 'a.mdx', $2, $3, 90)", question, confidence, refused)


async def test_gaps_group_the_same_question_and_list_most_frequent_first(conn) -> None:
    for question in ["How do I reset my password?", "how do i RESET my password", "  Reset   password!!! ",
                     "What is the capital of France?", "capital of france"]:
        await _record(conn, question)
    await _record(conn, "???")
    await _record(conn, "???")
    await _record(conn, "x" * 2000)
    gaps = await list_gaps(conn, 90)
    assert [g.count for g in gaps] == [3, 2, 2, 1]
    assert gaps[0].question == "  Reset   password!!! "  # the latest wording
    assert max(len(g.question) for g in gaps) == 500


async def test_gap_retention_and_since(conn) -> None:
    await _record(conn, "old question about tides")
    await _record(conn, "last week's question about volcanoes")
    await conn.execute("update docs_chat_gap set last_seen = now() - interval '100 days' where question like 'old%'")
    await conn.execute("update docs_chat_gap set last_seen = now() - interval '10 days' where question like 'last%'")
    assert [g.question for g in await list_gaps(conn, 90)] == ["last week's question about volcanoes"]
    assert await conn.fetchval("select count(*) from docs_chat_gap") == 1  # deleted, not hidden
    await _record(conn, "a new question about comets")
    assert [g.question for g in await list_gaps(conn, 90, parse_since("7d"))] == ["a new question about comets"]
    await conn.execute("update docs_chat_gap set last_seen = now() - interval '40 days'")
    await _record(conn, "another question")  # recording prunes too
    assert await conn.fetchval("select count(*) from docs_chat_gap") == 3
    await conn.fetchval("select record_docs_chat_gap('one more', null, 0.1, true, 30)")
    assert await conn.fetchval("select count(*) from docs_chat_gap") == 2
    assert await clear_gaps(conn, parse_since("1h")) == 2 and await list_gaps(conn, 90) == []


def test_parse_since() -> None:
    assert parse_since("7d").days == 7 and parse_since("24h").total_seconds() == 86400
    assert parse_since("36500d").days == 36500
    # Past a century a Postgres timestamp soon overflows, and a huge number overflowed timedelta.
    for bad in ["", "7", "d", "-1d", "0d", "7 days", "1y", "36501d", "99999999999d", "9" * 30 + "m"]:
        with pytest.raises(BadDuration):
            parse_since(bad)


async def test_gaps_cli(conn, db_env) -> None:
    await _record(conn, "How do I reset my password?")
    await _record(conn, "how do I reset my password")
    await _record(conn, "Who painted the Mona Lisa?")

    def cli(*args: str) -> CliRun:
        return docschat_in_process("gaps", *args, env={"DATABASE_URL": db_env})

    result = cli("--json", "--since", "7d")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(g["question"], g["count"]) for g in lines] == [("how do I reset my password", 2),
                                                              ("Who painted the Mona Lisa?", 1)]
    table = cli()
    assert table.returncode == 0 and "Mona" in table.stdout
    bad = cli("--since", "forever")
    assert bad.returncode == 2 and "--since" in bad.stderr
    cleared = cli("--clear", "--json")
    assert cleared.returncode == 0 and json.loads(cleared.stdout) == {"deleted": 2}
    assert cli("--json").stdout == ""


# --- eval ------------------------------------------------------------------------------------------


async def test_eval_scores_unanswerable_lines_apart(pool, tmp_path: Path) -> None:
    from tests.test_search import add, refresh

    async with pool.acquire() as conn:
        await add(conn, "en/widget.mdx#embed", "Embed the widget with one script tag", title="Widget", heading="Embed")
        await add(conn, "en/sync.mdx#run", "Run the sync command in CI", title="Sync", heading="Run")
        await refresh(conn)
    path = tmp_path / "q.jsonl"
    lines = [
        {"question": "how to embed the widget", "gold": ["https://x.test/docs/en/widget#embed"]},
        {"question": "run sync in CI", "gold": ["https://x.test/docs/en/sync#run", "https://x.test/docs/en/sync#x"]},
        {"question": "xyzzy plugh", "gold": []},
        {"question": "What is the capital of France?", "gold": []},
    ]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    settings = get_settings().model_copy(update={"embedding_provider": "none"})
    report = await evaluate(build_retriever(pool, settings), load_eval_file(path), mode="keyword", k=3,
                            base_url="https://x.test")
    assert (report["questions"], report["answerable"], report["unanswerable"]) == (4, 2, 2)
    assert report["refusal_rate"] == 1.0 and report["false_refusal_rate"] == 0.0
    assert report["recall"] == 0.75 and report["mrr"] == 1.0  # over the answerable lines only
    per_question = cast(list[dict[str, Any]], report["per_question"])
    assert [q["would_answer"] for q in per_question] == [True, True, False, False]
    assert all(0 <= q["confidence"] <= 1 for q in per_question) and "recall" not in per_question[2]
    only_unanswerable = tmp_path / "u.jsonl"
    only_unanswerable.write_text(json.dumps(lines[2]) + "\n")
    report = await evaluate(build_retriever(pool, settings), load_eval_file(only_unanswerable), mode="keyword", k=3,
                            base_url="https://x.test")
    assert report["recall"] is None and report["false_refusal_rate"] is None and report["refusal_rate"] == 1.0


def test_eval_file_gold_must_be_a_list_of_urls(tmp_path: Path) -> None:
    for bad in ['{"question": "q"}', '{"question": "q", "gold": "u"}', '{"question": "q", "gold": [""]}',
                '{"question": "q", "gold": [1]}', '{"question": "q", "gold": ["widget#embed"]}']:
        path = tmp_path / "bad.jsonl"
        path.write_text(bad + "\n")
        with pytest.raises(EvalFileError, match="gold"):
            load_eval_file(path)


def test_an_eval_file_that_cannot_be_read_is_one_line_naming_it(tmp_path: Path) -> None:
    """Each of these ended in a traceback (or, for the byte order mark, in "not JSON" on line 1)."""
    good = '{"question": "q", "gold": ["https://x.test/a"]}'
    path = tmp_path / "q.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + good.encode() + b"\n")
    assert [item.gold for item in load_eval_file(path)] == [["https://x.test/a"]]
    for data, problem in ((b"\xff\xfe\x00q", "not UTF-8"), (b"[" * 100_000 + b"]" * 100_000, "cannot be read"),
                          (('{"question": "q", "gold": [], "n": ' + "9" * 5000 + "}").encode(), "cannot be read")):
        path.write_bytes(data + b"\n")
        with pytest.raises(EvalFileError, match=problem):
            load_eval_file(path)


def test_unanswerable_set_has_forty_generic_questions() -> None:
    path = Path(__file__).parent / "data" / "unanswerable.jsonl"
    items = load_eval_file(path)
    assert len(items) >= 40 and all(item.gold == [] for item in items)
    kinds = {json.loads(line)["kind"] for line in path.read_text().splitlines() if line.strip()}
    assert kinds == {"off-topic", "chit-chat", "other-products", "keyboard-mash"}


# --- the answer check (issue 31): the question's specific terms must be in the docs ---------------

# Short real passages of the three shared corpora (../shared/corpora), as pages of one test site.
CHECK_DOCS = {
    "rate-limits.mdx": (
        "---\ntitle: Rate limits\npublic: true\n---\nLimits are defined by usage tier.\n\n## Usage tiers\n"
        "Your organization will increase tiers automatically as you reach certain thresholds while using the "
        "API. Tier 1 allows 50 requests per minute; Tier 4 allows 4,000 requests per minute.\n"
    ),
    "redirects.mdx": (
        "---\ntitle: Redirects\npublic: true\n---\nSet up redirects in docs.json.\n\n## Wildcard redirects\n"
        "To match a wildcard path, use * after a parameter. Redirects take effect when the deployment "
        "finishes.\n"
    ),
    "batching.mdx": (
        "---\ntitle: Dynamic request batching\npublic: true\n---\nServe offers a request batching feature.\n\n"
        "## Enable batching for your deployment\nUse the @serve.batch decorator with max_batch_size and "
        "batch_wait_timeout_s to batch requests to a deployment.\n"
    ),
    "install.mdx": (
        "---\ntitle: Installation\npublic: true\n---\nInstall with pip.\n\n## Supported versions\n"
        "Ray supports Python 3.9 to 3.12 on Linux and macOS; Windows support is in beta.\n"
    ),
}


def test_specific_terms_are_names_numbers_and_identifiers() -> None:
    from app.judge.question_terms import is_specific_word, literals, names

    assert literals("How do I raise my rate limit to Tier 6?") == ["Tier 6"]
    assert literals("Does KubeRay support Kubernetes 1.16?") == ["1.16", "Kubernetes 1.16"]
    assert literals("What does error 418 mean in eu-west-3?") == ["418", "eu-west-3"]
    assert literals("Set `max_method_retries` or sidebarWidth") == ["max_method_retries", "sidebarWidth"]
    # Code and the asker's own files name nothing the docs should define; a date is no version.
    assert literals('Why `{"CPU":0}` in ray/rllib/evaluation/rollout_worker.py as of June 2024?') == ["2024"]
    assert names("How do I use Django as the ingress? Is it fast.") == ["Django"]
    assert is_specific_word("Rust") and is_specific_word("netlify") and is_specific_word("PayPal")
    assert not is_specific_word("happen") and not is_specific_word("intelligently")
    assert not is_specific_word("Does", first=True)
    # A contraction typed without its apostrophe is no name (demo-17: "my page doesnt show up"
    # was answered with "The documentation found does not mention “doesnt”.").
    assert not any(is_specific_word(w) for w in ("doesnt", "dont", "cant", "wont", "youre", "ive", "theyre"))
    assert is_specific_word("vercelt")  # not a common word ending in n, then t


async def _check(pool, question: str):
    from app.search.conversation import answer_check_of, retrieve_in_conversation

    retrieval = await retrieve_in_conversation(build_retriever(pool, get_settings()), question)
    return retrieval, answer_check_of(retrieval)


async def test_a_term_the_docs_never_use_is_named_and_never_refuses(offline, pool) -> None:
    """Issue 45: the offline check never refuses on its own; a term the docs never use is answered
    "partly", naming it."""
    from tests.test_conversations import seed_into

    await seed_into(pool, CHECK_DOCS)
    retrieval, check = await _check(pool, "How do I raise my rate limit to Tier 6?")
    assert check.verdict == "partly" and check.absent == ("Tier 6",) and check.not_covered == ["Tier 6"]
    assert retrieval.would_answer and retrieval.judgment.rule == "keyword_only"
    assert retrieval.judgment.explanation["answer_check"]["absent"] == ["Tier 6"]
    retrieval, check = await _check(pool, "How do I raise my rate limit to Tier 4?")
    assert check.verdict == "answerable" and retrieval.would_answer
    retrieval, check = await _check(pool, "Can I use the @serve.batch decorator from Rust?")
    assert check.verdict == "partly" and check.absent == ("Rust",) and retrieval.would_answer
    retrieval, check = await _check(pool, "How do I set batch_wait_timeout_s for batching?")
    assert check.verdict == "answerable" and retrieval.would_answer
    retrieval, check = await _check(pool, "How do I set max_wait_seconds for batching?")
    assert check.verdict == "partly" and check.absent == ("max_wait_seconds",) and retrieval.would_answer
    # A typo of a word the docs use is no unknown name ("parametr" is one edit from "paramet").
    retrieval, check = await _check(pool, "How do I set up wildcard redirects after a parametr in docs.json?")
    assert check.verdict == "answerable" and retrieval.would_answer


async def test_a_term_in_the_docs_but_not_in_the_sections_is_partly_covered(offline, pool) -> None:
    from app.judge.answer_check import check_answer
    from tests.test_conversations import seed_into

    await seed_into(pool, CHECK_DOCS)
    async with pool.acquire() as conn:
        rows = await conn.fetch("select id, content from docs_section where page = 'redirects.mdx' order by id")
        sections = [(r["id"], r["content"]) for r in rows]
        # "Tier 4" is in the docs (rate-limits.mdx), not in the redirects sections; "Tier 9" is nowhere.
        partly = await check_answer(conn, "Do wildcard redirects take effect on Tier 4?", sections, None)
        absent = await check_answer(conn, "Do wildcard redirects take effect on Tier 9?", sections, None)
        held = await check_answer(conn, "Do wildcard redirects take effect when the deployment finishes?",
                                  sections, None)
    assert partly.verdict == "partly" and partly.elsewhere == ("Tier 4",) and partly.absent == ()
    assert absent.verdict == "partly" and absent.absent == ("Tier 9",)
    assert held.verdict == "answerable" and held.sections == tuple(s[0] for s in sections)


async def test_a_pasted_error_is_context_and_a_near_identifier_is_partly_covered(offline, pool) -> None:
    from tests.test_conversations import seed_into

    await seed_into(pool, CHECK_DOCS)
    # "Flubber" named by the asker is named as not covered; inside the error message they pasted it is context.
    retrieval, check = await _check(pool, "Can the Flubber deployment use the @serve.batch decorator?")
    assert check.verdict == "partly" and check.absent == ("Flubber",)
    retrieval, check = await _check(
        pool, "Batching requests to a deployment with the @serve.batch decorator: ValueError: Flubber batch")
    assert check.verdict == "answerable" and retrieval.would_answer and "Flubber" in check.context
    # An identifier the docs do not use whose words one of theirs holds in order (batch_wait_timeout_s):
    # answered, naming it as not covered, as one whose words no identifier holds.
    retrieval, check = await _check(pool, "How do I set batch_timeout_s for batching?")
    assert check.verdict == "partly" and check.near == ("batch_timeout_s",) and retrieval.would_answer
    retrieval, check = await _check(pool, "How do I set timeout_batch_s for batching?")
    assert check.verdict == "partly" and check.absent == ("timeout_batch_s",) and check.near == ()


ERROR_DOCS = {
    "errors.mdx": (
        "---\ntitle: Errors\npublic: true\n---\nThe API returns these errors.\n\n## HTTP errors\n"
        "403 means permission_error: your API key does not have permission to use the resource. "
        "429 means rate_limit_error: your account has hit a rate limit.\n"
    ),
}


def test_the_askers_own_count_is_told_from_a_number_asked_about() -> None:
    from app.judge.question_terms import asking_nothing

    assert asking_nothing("I send 4032x3024 photos. Does it shrink them?") == ["I send 4032x3024 photos."]
    assert asking_nothing("Why? I send photos.") == ["I send photos."] and asking_nothing("I send photos.") == []


async def test_the_askers_own_count_decides_nothing_and_what_the_docs_lack_is_named(offline, pool) -> None:
    """Seventh round's CONTEXT_NUMBERS (confirmed on held-out 6) stays; the rules that helped on no
    set they were not tuned on (status phrases, plural numbers, scene clauses, judgement words) are
    gone (issue 45): their words are named as not mentioned, and nothing is refused."""
    from app.judge.answer_check import check_answer
    from tests.test_conversations import seed_into

    await seed_into(pool, CHECK_DOCS | ERROR_DOCS)
    async with pool.acquire() as conn:
        rows = await conn.fetch("select id, content from docs_section where page = 'errors.mdx' order by id")
        sections = [(r["id"], r["content"]) for r in rows]

        async def check(question: str):
            return await check_answer(conn, question, sections, None)

        result = await check("I send 4032x3024 requests to the API. Why do they fail with a rate_limit_error?")
        assert result.verdict == "answerable" and "4032x3024" in result.context, result
        for question, term in [
            ("If we run on Flubber, what does a rate_limit_error mean?", "Flubber"),
            ("I use Flubber. Why does it get a rate_limit_error?", "Flubber"),
            ("We pay for Tier 9. What does the permission_error mean for it?", "Tier 9"),
            ("All my calls come back 403 Forbidden, what is the API telling me?", "Forbidden"),
        ]:
            result = await check(question)
            assert result.verdict == "partly" and term in result.absent, (question, result)


def test_name_pairs_and_hyphenated_compounds_are_specific_terms() -> None:
    from app.judge.question_terms import hyphenated, name_pairs

    assert name_pairs("How do I deploy a Ray Serve app on AWS Lambda?") == ["Ray Serve", "AWS Lambda"]
    # The word opening a sentence is no name; commas and "I" part names; a month is a date.
    assert name_pairs("Does Ray support it? How would you compare Spark, Ray, Dask?") == []
    assert name_pairs("Can I Use it in June 2024 with Microsoft Teams") == ["Microsoft Teams"]
    assert hyphenated("Which text-to-speech voices, for a 500-page PDF in eu-west-3?") == ["text-to-speech", "500-page"]
    assert hyphenated("see ray/rllib/rollout-worker.py") == []


# A page naming clouds and compounds whose combinations the questions below do not hold.
PAIR_DOCS = {
    "clouds.mdx": (
        "---\ntitle: Clouds\npublic: true\n---\nThe cluster launcher supports AWS and Azure.\n\n"
        "## Functions\nPass a lambda to map the batch. A text-to-image model and a speech recognition model "
        "are examples. Read the prefilled response.\n"
    ),
}


async def test_a_pair_or_compound_the_docs_never_hold_is_named_and_one_they_hold_is_not(offline, pool) -> None:
    from app.judge.answer_check import check_answer
    from tests.test_conversations import seed_into

    await seed_into(pool, CHECK_DOCS | PAIR_DOCS)
    async with pool.acquire() as conn:
        rows = await conn.fetch("select id, content from docs_section where page = 'batching.mdx' order by id")
        sections = [(r["id"], r["content"]) for r in rows]
        total = await conn.fetchval("select count(*) from docs_section")

        async def verdict(question: str):
            return await check_answer(conn, question, sections, None)

        # "AWS" and "lambda" are each in the docs; "AWS Lambda" is not: the docs do not say.
        check = await verdict("Can a deployment with the @serve.batch decorator run on AWS Lambda?")
        assert check.verdict == "partly" and check.absent == ("AWS Lambda",)
        check = await verdict("Can a deployment with the @serve.batch decorator run on AWS?")
        assert check.verdict == "answerable" and check.absent == ()
        # A compound no section holds is named even though "text" and "speech" are words of the docs;
        # one the docs hold elsewhere (or by its stem, "pre-filled" as "prefilled") decides nothing.
        check = await verdict("Does the @serve.batch decorator batch requests to a text-to-speech model?")
        assert check.verdict == "partly" and check.absent == ("text-to-speech",)
        check = await verdict("Does the @serve.batch decorator batch requests to a text-to-image model?")
        assert check.verdict == "answerable"
        check = await verdict("Does the @serve.batch decorator batch pre-filled requests?")
        assert check.verdict == "answerable"
        # A pair opened by a word most sections hold is the docs' subject and one of its things.
        held = await conn.fetchval(
            "select count(*) from docs_section where search_vector @@ plainto_tsquery('english', 'batch')")
        assert held / total >= 0.12  # above the shipped SUBJECT_SHARE (0.10)
        check = await verdict("How does Batch Flubberization work with the @serve.batch decorator?")
        assert "Batch Flubberization" not in check.absent and check.absent == ("Flubberization",)


COUNT_DOCS = {
    "limits.mdx": (
        "---\ntitle: Limits\npublic: true\n---\n## Images\n\nYou can include up to 20 images in a single request. "
        "Each image may be at most 5 MB.\n\n## Tools\n\nTools were added in the 2023 API version. Each tool has a "
        "name and a description. A tool also has an input schema. You define them in the tools parameter.\n"
        "\n## Fonts\n\nLoad font files in the woff2 format. Each font file needs a family name.\n"
        "\n## Themes\n\nTo add a theme to the site:\n\n1. Open the theme settings.\n2. Pick a theme colour.\n"
    ),
}


async def test_a_count_no_passage_states_is_answered_partly(offline, pool) -> None:
    """Sixth round: a question asking for a count or a limit is answered in full only when a passage
    of the checked sections states a number (not the question's own) beside what is counted; the
    docs say how many images a request holds, not how many tools (issue 45: "partly", not refused)."""
    from app.judge.answer_check import check_answer
    from tests.test_conversations import seed_into

    await seed_into(pool, CHECK_DOCS | COUNT_DOCS)
    async with pool.acquire() as conn:
        rows = await conn.fetch("select id, content from docs_section where page = 'limits.mdx' order by id")
        sections = [(r["id"], f"Limits\n{r['content']}") for r in rows]

        async def verdict(question: str):
            return await check_answer(conn, question, sections, None)

        check = await verdict("How many images can I include in one request?")
        assert check.verdict == "answerable" and check.unstated == (), check
        check = await verdict("What is the maximum number of tools I can define in one request?")
        assert check.verdict == "partly" and "tool" in check.unstated and check.absent == (), check
        assert check.to_dict()["unstated"] == list(check.unstated)
        # The question's own number states nothing.
        check = await verdict("How many tools can one request define with the 2023 API version?")
        assert check.verdict == "partly", check
        # The digits of a name ("woff2") and a list's item numbers ("1.", "2.") state no count.
        check = await verdict("How many font files can I load?")
        assert check.verdict == "partly" and "font" in check.unstated, check
        check = await verdict("What is the maximum number of themes I can add to the site?")
        assert check.verdict == "partly" and "theme" in check.unstated, check
        # A question that asks for no count is not held to it.
        check = await verdict("Where are tools defined in a request?")
        assert check.verdict == "answerable", check


INTERNAL_DOCS = {
    "runbook.mdx": "---\ntitle: Batch runbook\n---\nRestart the batch workers. Batch jobs page the on-call.\n",
}


async def test_word_share_is_read_from_the_statistics_per_audience(offline, pool) -> None:
    """docs_word_share reads the word statistics, not the sections; it must say what a scan of the
    sections the asker may see says (stems, audiences, a word of no section, a stop word)."""
    from tests.test_conversations import seed_into

    await seed_into(pool, CHECK_DOCS | PAIR_DOCS | INTERNAL_DOCS)
    words = ["Batch", "batching", "AWS", "Flubber", "the", "Runbook"]
    scan = """select count(*) filter (where search_vector @@ plainto_tsquery('english', $1))::float8
                     / greatest(count(*), 1)
              from docs_section where $2::text[] is null or audiences && $2::text[]"""
    async with pool.acquire() as conn:
        for audiences in (["public"], None):
            rows = await conn.fetch("select * from docs_word_share($1, $2)", words, audiences)
            assert [r["word"] for r in rows] == words
            for row in rows:
                assert row["share"] == pytest.approx(await conn.fetchval(scan, row["word"], audiences)), row
        shares = {r["word"]: r["share"] for r in await conn.fetch("select * from docs_word_share($1, '{public}')", words)}
        assert shares["Flubber"] == 0 and shares["the"] == 0 and shares["Runbook"] == 0  # internal only
        assert shares["Batch"] == shares["batching"] > 0.1 > shares["AWS"] > 0


def test_a_term_the_docs_lack_is_answered_with_a_line_and_the_handoff(offline, start_server, monkeypatch) -> None:
    """Issue 45: the offline check never refuses. "Tier 6" is nowhere in the docs: the answer is
    given, with one line naming it and the hand-off link, and recorded as a partly gap."""
    seed_docs(offline, CHECK_DOCS)
    monkeypatch.setenv("HANDOFF_URL", "https://support.example.com/ask")
    monkeypatch.setenv("HANDOFF_TEXT", "Ask [support]")
    server = start_server()
    question = "How do I raise my rate limit to Tier 6?"
    with httpx.Client(base_url=server.url, timeout=30) as client:
        parts = parse_sse(ask(client, question).text)
    text = _text(parts)
    assert text != NOT_COVERED and any(isinstance(p, dict) and p["type"] == "source-url" for p in parts)
    assert "Tier 4" in text  # the docs' own tiers, quoted
    assert text.endswith("\n\nThe documentation found does not mention “Tier 6”. "
                         "[Ask (support)](https://support.example.com/ask)"), text
    rows = _wait_for_gaps(offline, 1)
    assert [r["question"] for r in rows] == [question] and not rows[0]["refused"]
    assert rows[0]["outcome"] == "partly"
    monkeypatch.setenv("ANSWER_CHECK", "false")
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        parts = parse_sse(ask(client, question).text)
    assert "does not mention" not in _text(parts) and any(isinstance(p, dict) and p["type"] == "source-url" for p in parts)


def test_partly_covered_answer_says_what_the_docs_do_not_cover(offline, start_server, monkeypatch) -> None:
    import app.search.conversation as conversation

    seed_docs(offline, CHECK_DOCS)
    monkeypatch.setattr(conversation, "CHECK_SECTIONS", 1)  # a site this small fits in five sections
    # One low-confidence line for keyword-only and hybrid retrieval (by default 0.55 and 0.60): the
    # gap's outcome is read against it (app/chat/gaps.py), and this answer's confidence is 0.58.
    monkeypatch.setenv("LOW_CONFIDENCE", "0.5")
    get_settings.cache_clear()
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        parts = parse_sse(ask(client, "Do wildcard redirects in docs.json take effect on Tier 4?").text)
    text = _text(parts)
    assert text != NOT_COVERED and any(isinstance(p, dict) and p["type"] == "source-url" for p in parts)
    assert text.endswith("\n\nThe documentation found does not mention “Tier 4”.")
    # Answered only in part: a gap, told apart from a refusal and from a low-confidence answer.
    rows = _wait_for_gaps(offline, 1)
    assert [r["question"] for r in rows] == ["Do wildcard redirects in docs.json take effect on Tier 4?"]
    assert rows[0]["refused"] is False and rows[0]["best_page"] == "redirects.mdx" and rows[0]["outcome"] == "partly"
    gaps = asyncio.run(_list_gaps(offline))
    assert [g.outcome for g in gaps] == ["partly"] and gaps[0].to_dict()["outcome"] == "partly"


async def _list_gaps(database_url: str):
    import asyncpg

    conn = await asyncpg.connect(database_url)
    try:
        return await list_gaps(conn, 90, settings=get_settings())
    finally:
        await conn.close()


async def test_a_gap_recorded_before_the_outcome_column_is_read_from_refused_and_confidence(conn) -> None:
    from app.judge.outcomes import low_line

    settings = get_settings()
    line = low_line(settings)
    assert line == 0.6  # the hybrid floor 0.45 + 0.15 (keyword-only's line, 0.55, is lower)
    await _record(conn, "refused question about tides", confidence=0.1, refused=True)
    await _record(conn, "low question about volcanoes", confidence=line - 0.01, refused=False)
    await _record(conn, "partly question about comets", confidence=line, refused=False)
    outcomes = {g.question.split()[0]: g.outcome for g in await list_gaps(conn, 90, settings=settings)}
    assert outcomes == {"refused": "refused", "low": "answered", "partly": "partly"}
    # The line follows the settings: with LOW_CONFIDENCE at 0.9 both answered gaps are low ones.
    raised = settings.model_copy(update={"low_confidence": 0.9})
    assert low_line(raised) == 0.9
    assert {g.outcome for g in await list_gaps(conn, 90, settings=raised)} == {"refused", "answered"}


async def test_a_gap_keeps_the_outcome_of_its_latest_occurrence(conn) -> None:
    """The outcome column says what became of the question; it wins over the reading from
    `refused` and the confidence, and a later occurrence replaces it."""
    import asyncpg

    record = "select record_docs_chat_gap($1, 'a.mdx', $2, $3, 90, $4)"
    await conn.fetchval(record, "Does the Batch API stream?", 0.7, True, "refused_indomain")
    await conn.fetchval(record, "What is the capital of France?", 0.1, True, "refused_offtopic")
    await conn.fetchval(record, "Are answers kept for 24 months?", 0.1, False, "partly")
    outcomes = {g.question: g.outcome for g in await list_gaps(conn, 90)}
    assert outcomes == {"Does the Batch API stream?": "refused_indomain",
                        "What is the capital of France?": "refused_offtopic",
                        "Are answers kept for 24 months?": "partly"}
    await conn.fetchval(record, "does the batch API stream", 0.7, False, "answered")
    [gap] = [g for g in await list_gaps(conn, 90) if g.count == 2]
    assert gap.outcome == "answered" and gap.to_dict()["outcome"] == "answered"
    with pytest.raises(asyncpg.CheckViolationError):
        await conn.fetchval(record, "Is it green?", 0.1, True, "maybe")


# --- the model verifier: one bounded call, each verdict from the fake servers ---------------------

def _verdict(verdict: str, supporting: str = "", not_covered: str = "") -> str:
    return json.dumps({"verdict": verdict, "supporting": supporting, "not_covered": not_covered})


@pytest.mark.parametrize("provider", ["gemini", "openai"])
def test_model_verifier_each_verdict(provider, request, clean_db, start_server, monkeypatch) -> None:
    fake = request.getfixturevalue(f"fake_{provider}")
    monkeypatch.setenv("ANSWER_PROVIDER", provider)
    monkeypatch.setenv("ANSWER_VERIFIER", "model")
    monkeypatch.setenv("EMBEDDING_PROVIDER", provider if provider == "gemini" else "none")
    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "100")
    # The low-confidence line at the floor: an answer is a gap here only for its verdict (the fake
    # Gemini embeddings give this question 0.49, below the default line of 0.60).
    monkeypatch.setenv("LOW_CONFIDENCE", "0.45")
    seed_docs(clean_db, CHECK_DOCS)
    server = start_server()
    question = "How do I enable batching for my deployment?"

    def turn(verdict_text: str) -> list:
        if provider == "gemini":
            fake.generate_text = verdict_text
        else:
            fake.replies = [[verdict_text], ["Use @serve.batch [1]."]]
        with httpx.Client(base_url=server.url, timeout=30) as client:
            return parse_sse(ask(client, question).text)

    def answer_calls() -> int:
        return len(fake.generate_calls() if provider == "gemini" else fake.calls("/v1/chat/completions"))

    before = answer_calls()
    parts = turn(_verdict("not"))
    assert _text(parts) == NOT_COVERED and not any(isinstance(p, dict) and p["type"] == "source-url" for p in parts)
    assert _finish(parts)["messageMetadata"]["would_answer"] is False
    # No answer was streamed after a "not" (OpenAI: the one call made was the verdict).
    assert answer_calls() == before + (0 if provider == "gemini" else 1)
    parts = turn(_verdict("answerable", supporting="Use the @serve.batch decorator"))
    assert _text(parts) not in ("", NOT_COVERED) and "does not cover" not in _text(parts)
    # The stream says what the verifier's call is doing while it waits for it.
    statuses = [p["data"]["text"] for p in parts if isinstance(p, dict) and p["type"] == "data-status"]
    checking = statuses.index("Checking that the excerpts answer the question")
    assert statuses[0] == "Searching the documentation" and statuses[checking + 1] == "Writing the answer", statuses
    assert any(isinstance(p, dict) and p["type"] == "source-url" for p in parts)
    # The reply (and its gap) is saved before the stream ends: only the "not" is a gap so far, a
    # refusal in the docs' own topic.
    assert [(r["count"], r["refused"], r["outcome"]) for r in _gap_rows(clean_db)] == [(1, True, "refused_indomain")]
    parts = turn(_verdict("partly", not_covered="batching across several deployments"))
    assert _text(parts).endswith("The documentation found does not cover: batching across several deployments")
    # The "not" was recorded as a refused gap; the model's "partly" is a gap too, answered (not refused).
    from tests.helpers import wait_until

    row = wait_until(lambda: next((r for r in _gap_rows(clean_db) if r["count"] == 2), None),
                     what="the partly answer's gap")
    assert row["question"] == question and row["refused"] is False and row["outcome"] == "partly"
    # A reply that is no verdict: the offline check's verdict ("answerable" here) stands.
    parts = turn("I think so!")
    assert _text(parts) not in ("", NOT_COVERED) and "does not" not in _text(parts)
    verify_prompts = (fake.plain_generate_calls() if provider == "gemini" else
                      [c for c in fake.calls("/v1/chat/completions") if "one JSON object" in json.dumps(c["body"])])
    assert len(verify_prompts) == 4 and question in json.dumps(verify_prompts[-1]["body"])


@pytest.mark.parametrize("provider", ["gemini", "openai"])
def test_model_verifier_decides_where_the_offline_check_finds_a_term_missing(provider, request, clean_db,
                                                                             start_server, monkeypatch) -> None:
    fake = request.getfixturevalue(f"fake_{provider}")
    monkeypatch.setenv("ANSWER_PROVIDER", provider)
    monkeypatch.setenv("ANSWER_VERIFIER", "model")
    monkeypatch.setenv("EMBEDDING_PROVIDER", provider if provider == "gemini" else "none")
    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "100")
    # Floors far below both questions' confidence: only the model may refuse here.
    monkeypatch.setenv("ANSWER_FLOOR", "0.05")
    monkeypatch.setenv("KEYWORD_ANSWER_FLOOR", "0.05")
    from tests.test_conversations import DOCS

    # With the conversation pages too: on a dozen sections every word is the docs' subject (>= 10%).
    seed_docs(clean_db, DOCS | CHECK_DOCS | PAIR_DOCS)
    server = start_server()
    if provider == "gemini":
        fake.generate_text = _verdict("answerable", supporting="Use the @serve.batch decorator")
    else:
        fake.replies = [[_verdict("answerable")], ["Use @serve.batch [1]."]]

    def calls() -> int:
        return len(fake.generate_calls() if provider == "gemini" else fake.calls("/v1/chat/completions"))

    def ask_text(question: str) -> str:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            parts = parse_sse(ask(client, question).text)
        assert _finish(parts)["messageMetadata"]["confidence"] >= 0.05
        return _text(parts)

    # "AWS" is in the docs: the model is asked (and answers). "AWS Lambda" is not: the offline check
    # no longer refuses it (issue 45); the model is asked, and its "answerable" answers.
    assert ask_text("How do I enable batching for my deployment on AWS?") != NOT_COVERED
    before = calls()
    assert before >= 1
    assert ask_text("How do I enable batching for my deployment on AWS Lambda?") != NOT_COVERED
    assert calls() > before
    # Its "not" refuses.
    if provider == "gemini":
        fake.generate_text = _verdict("not")
    else:
        fake.replies = [[_verdict("not")]]
    assert ask_text("How do I enable batching for my deployment on AWS Lambda?") == NOT_COVERED


def test_parse_verdict_drops_quotes_that_are_in_no_excerpt() -> None:
    from app.chat.answerers import Excerpt
    from app.judge.verify import parse_verdict

    excerpts = [Excerpt(1, "Batching", "https://x.test/b", "Enable", "Use the @serve.batch decorator to batch.")]
    check = parse_verdict('```json\n' + _verdict("answerable", "use the @serve.batch decorator") + "\n```",
                          excerpts, "model:test")
    assert check.verdict == "answerable" and check.supporting == "use the @serve.batch decorator"
    invented = parse_verdict(_verdict("answerable", "set batch_size=64 in serve.yaml"), excerpts, "model:test")
    assert invented.verdict == "answerable" and invented.supporting is None
    assert parse_verdict('{"verdict": "maybe"}', excerpts, "m") is None
    assert parse_verdict("[" * 5000, excerpts, "m") is None and parse_verdict(None, excerpts, "m") is None


async def test_eval_reports_refusal_by_kind(pool, db_env, tmp_path: Path) -> None:
    from tests.test_search import add, refresh

    async with pool.acquire() as conn:
        await add(conn, "en/widget.mdx#embed", "Embed the widget with one script tag", title="Widget", heading="Embed")
        await refresh(conn)
    lines = [
        {"question": "how to embed the widget", "gold": ["https://x.test/docs/en/widget#embed"]},
        {"question": "xyzzy plugh", "gold": [], "unanswerable": "offtopic"},
        {"question": "What is the capital of France?", "gold": [], "unanswerable": "offtopic"},
        {"question": "How do I embed the widget with a Vue 3 component?", "gold": [], "unanswerable": "indomain"},
        {"question": "lorem ipsum", "gold": []},
    ]
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    settings = get_settings().model_copy(update={"embedding_provider": "none"})
    report = await evaluate(build_retriever(pool, settings), load_eval_file(path), mode="keyword", k=3,
                            base_url="https://x.test")
    assert report["refusal_by_kind"] == {
        "offtopic": {"questions": 2, "refused": 2, "refusal_rate": 1.0, "partly": 0},
        "indomain": {"questions": 1, "refused": 1, "refusal_rate": 1.0, "partly": 0},
    }
    assert report["false_refusal_rate"] == 0.0
    assert report["per_question"][0]["answer_check"]["verdict"] == "answerable"
    assert report["per_question"][3]["unanswerable"] == "indomain" and not report["per_question"][3]["would_answer"]
    # The terminal report (not --json) prints each kind's refusals beside the overall rate.
    result = await asyncio.to_thread(docschat_in_process, "eval", str(path), "--mode", "keyword",
                                     env={"DATABASE_URL": db_env, "EMBEDDING_PROVIDER": "none",
                                          "DOCS_BASE_URL": "https://x.test"})
    assert result.returncode == 0, result.stderr
    assert "refusal rate (unanswerable refused): 1.000" in result.stdout
    assert "  offtopic: refused 2/2 (1.000), answered partly 0" in result.stdout
    assert "  indomain: refused 1/1 (1.000), answered partly 0" in result.stdout
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"question": "q", "gold": [], "unanswerable": "maybe"}) + "\n")
    with pytest.raises(EvalFileError, match="bad.jsonl:1: 'unanswerable' must be one of offtopic, indomain"):
        load_eval_file(bad)
    bad.write_text(json.dumps({"question": "q", "gold": ["https://x.test/a"], "unanswerable": "indomain"}) + "\n")
    with pytest.raises(EvalFileError, match="needs 'gold': \\[\\]"):
        load_eval_file(bad)


def test_indomain_unanswerable_set_is_checked_and_split() -> None:
    """Every line says how its answer was searched for; a third of each corpus is held out."""
    data = Path(__file__).parent / "data"
    dev = [json.loads(line) for line in (data / "unanswerable-indomain-dev.jsonl").read_text().splitlines()]
    held = [json.loads(line) for line in (data / "unanswerable-indomain-heldout.jsonl").read_text().splitlines()]
    assert len(dev) + len(held) >= 60
    for line in dev + held:
        assert line["gold"] == [] and line["unanswerable"] == "indomain" and line["checked"].startswith("cd corpora/")
    for corpus in ("mintlify", "claude", "ray"):
        d = sum(line["corpus"] == corpus for line in dev)
        h = sum(line["corpus"] == corpus for line in held)
        assert h >= 5 and abs(h - (d + h) / 3) < 1
    assert not {line["question"] for line in dev} & {line["question"] for line in held}


def test_a_name_the_quoted_answer_does_not_show_makes_it_partly() -> None:
    from app.judge.answer_check import AnswerCheck, unquoted_names
    from app.judge.verify import not_covered_line

    check = AnswerCheck("answerable", named=("Workbench", "Project", "Opus"))
    quoted = unquoted_names(check, "Each prompt keeps its **Projects** history; Claude 3 Opus too. [1]")
    assert quoted.verdict == "partly" and quoted.unquoted == ("Workbench",)
    assert not_covered_line(quoted) == "\n\nThe documentation found does not mention “Workbench”."
    assert unquoted_names(check, "The Workbench, a Project and Opus. [1]") is check  # all shown: as it was
    # A name the line names already (found elsewhere in the docs) is not named twice.
    elsewhere = AnswerCheck("partly", elsewhere=("Workbench",), named=("Workbench",))
    assert unquoted_names(elsewhere, "Nothing on it. [1]").not_covered == ["Workbench"]


def test_a_limit_asked_for_that_no_quoted_sentence_states_makes_it_partly() -> None:
    """Session 33: a count question asking for a limit, answered with a default or another thing's
    number (starlight-u01, mint-u08 of the eval sets), says the number asked for is not stated."""
    from app.judge.answer_check import AnswerCheck, unstated_limit
    from app.judge.verify import not_covered_line

    answerable = AnswerCheck("answerable")
    search = ("**Site Search › Algolia DocSearch**\n\n- `maxResultsPerGroup`: Limit the number of results displayed "
              "for each search group. Default is `5`. [1]")
    check = unstated_limit(answerable, "is there a limit on how many pages a starlight site can have", search)
    assert check.verdict == "partly" and check.unstated == ("limit",)
    assert not_covered_line(check) == "\n\nThe documentation found does not state the number asked for."
    fonts = "**Fonts**\n\nUse Google Fonts or local font files such as `/assets/fonts/Inter.woff2`. [1]"
    assert unstated_limit(answerable, "how many custom fonts can i load at once", fonts).verdict == "partly"
    # A limit stated in one sentence: a limit word and a number the question does not hold, or none.
    for stated in ("You can trigger up to 500 items in one batch. [2]", "Batches are unlimited on Pro. [1]",
                   "- `MAX_BATCH_ITEMS` (default 500): items per batch [1]"):
        assert unstated_limit(answerable, "what is the maximum number of items in a batch?", stated) is answerable
    # The question's own number, a citation, a list's item number or a heading states no limit.
    for unstated in ("A batch may hold at most 10 items? See below. No, 10 is an example. [10]",
                     "**Limits › Batch 500 max**\n\n1. Open the batch page and add items [3]"):
        assert unstated_limit(answerable, "is there a limit above 10 items per batch?", unstated).verdict == "partly"
    # No limit asked (a count of something else, or a limit that is no count): as it was.
    assert unstated_limit(answerable, "how many tokens does an image cost?", fonts) is answerable
    assert unstated_limit(answerable, "how do I raise the queue size limit", fonts) is answerable
    already = AnswerCheck("partly", absent=("Bazel",))
    assert unstated_limit(already, "is there a limit on pages", fonts) is already


# Enough pages that a name on one of them is no subject of the docs (SUBJECT_SHARE: 10 % of sections).
NAMED_DOCS = {
    "versions.mdx": "---\ntitle: Prompt versions\npublic: true\n---\nPrompts are versioned.\n\n## Version history\n"
                    "Each prompt keeps a version history: restore an earlier version of the prompt from its history.\n",
    "workbench.mdx": "---\ntitle: Testing prompts\npublic: true\n---\nTest prompts before you ship them.\n\n"
                     "## Run a prompt\nOpen the Workbench to run a prompt against sample inputs.\n",
    **{f"topic{n}.mdx": f"---\ntitle: Topic {n}\npublic: true\n---\nAbout topic {n}.\n\n## Details\n"
                        f"Topic {n} has settings of its own.\n" for n in range(8)},
}


def test_an_answer_that_quotes_nothing_on_a_name_asked_about_says_so(offline, start_server) -> None:
    """Issue 45, second round: "Does the Workbench keep a version history?" was answered with the
    prompt-versioning passages, not a word on the Workbench; now that answer is "partly", naming it,
    and its gap says so. Asked about the Workbench's own page, no line."""
    seed_docs(offline, NAMED_DOCS)
    server = start_server()
    question = "Does the Workbench keep a version history of my prompts?"
    with httpx.Client(base_url=server.url, timeout=30) as client:
        text = _text(parse_sse(ask(client, question).text))
        held = _text(parse_sse(ask(client, "How do I run a prompt in the Workbench?").text))
    assert "version history" in text and text.endswith("\n\nThe documentation found does not mention “Workbench”."), text
    assert "Open the Workbench" in held and "does not mention" not in held, held
    rows = _wait_for_gaps(offline, 1)
    assert [(r["question"], r["outcome"]) for r in rows] == [(question, "partly")]


LIMIT_DOCS = {**NAMED_DOCS, "versions.mdx": "---\ntitle: Prompt versions\npublic: true\n---\nPrompts are versioned."
                                           "\n\n## Version history\nEach prompt keeps 20 versions by default, "
                                           "newest first: restore an earlier version from its history.\n"}


def test_an_answer_that_quotes_a_default_for_a_limit_asked_says_so(offline, start_server) -> None:
    """Session 33: the sections state a number beside what is counted (the count rule is met), but
    the quoted answer states no limit: through the chat's turn, the answer ends with the line and its
    gap is "partly"."""
    seed_docs(offline, LIMIT_DOCS)
    server = start_server()
    question = "What is the maximum number of versions a prompt can keep?"
    with httpx.Client(base_url=server.url, timeout=30) as client:
        text = _text(parse_sse(ask(client, question).text))
    assert "20 versions by default" in text, text
    assert text.endswith("\n\nThe documentation found does not state the number asked for."), text
    rows = _wait_for_gaps(offline, 1)
    assert [(r["question"], r["outcome"]) for r in rows] == [(question, "partly")]


async def test_the_names_a_quoted_answer_must_show_are_the_docs_names_not_their_subject(offline, pool) -> None:
    from tests.test_conversations import seed_into

    await seed_into(pool, NAMED_DOCS)
    # "Topic" is on most pages (the docs' subject), "Workbench" on one; "Zanzibar" on none (absent:
    # named by the check itself, as is "API" here), "Does" opens the sentence.
    from app.judge.answer_check import check_answer

    async with pool.acquire() as conn:
        rows = await conn.fetch("select id, content from docs_section where page = 'versions.mdx' order by id")
        check = await check_answer(conn, "Does the Workbench keep a Topic history for the API in Zanzibar?",
                                   [(r["id"], r["content"]) for r in rows], None)
    assert check.named == ("Workbench",) and check.absent == ("API", "Zanzibar"), check
