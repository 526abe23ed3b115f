"""/metrics: off by default; request counts, stage latencies, refusals, rate limits and syncs, no questions or IPs."""

from __future__ import annotations

import httpx
import pytest
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from app.config import get_settings
from app.corpus.compose import DocsSource
from app.db.pool import create_pool
from app.embeddings.providers import get_embedding_provider
from tests.helpers import make_docs_repo, sync_corpus
from tests.test_chat import DOCS, seed

QUESTION = "How do I embed the widget with a script tag?"
NONSENSE = "Zyxwvut qqqplorb frobnicate?"
STAGES = ("question_embedding", "keyword_leg", "vector_leg", "fusion", "first_guide", "first_answer_token", "turn")


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text) for s in family.samples
    }


def _delta(before: dict, after: dict, name: str, **labels: str) -> float:
    key = (name, tuple(sorted(labels.items())))
    return after.get(key, 0.0) - before.get(key, 0.0)


def test_metrics_are_off_unless_enabled(clean_db, start_server) -> None:
    server = start_server()
    assert httpx.get(server.url + "/metrics").status_code == 404


def test_metrics_count_requests_stages_refusals_and_rate_limits(fake_gemini, clean_db, start_server, monkeypatch
                                                                ) -> None:
    seed(clean_db)
    monkeypatch.setenv("METRICS_ENABLED", "true")
    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "2")
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        before = _samples(client.get("/metrics").text)
        assert client.post("/docs/chat", json={"message": QUESTION}).status_code == 200
        assert client.post("/docs/chat", json={"message": "How do I run a sync?"}).status_code == 200
        assert client.post("/docs/chat", json={"message": QUESTION}).status_code == 429
        response = client.get("/metrics")
    assert response.headers["content-type"].startswith("text/plain")
    after = _samples(response.text)
    requests = "docschat_http_requests_total"
    assert _delta(before, after, requests, route="/docs/chat", method="POST", status="200") == 2
    assert _delta(before, after, requests, route="/docs/chat", method="POST", status="429") == 1
    for stage in STAGES:
        assert _delta(before, after, "docschat_stage_seconds_count", stage=stage) >= 1, stage
    assert _delta(before, after, "docschat_stage_seconds_count", stage="turn") == 2
    assert _delta(before, after, "docschat_chat_turns_total", outcome="answered") == 2
    assert _delta(before, after, "docschat_chat_refusals_total", reason="no_guides") == 0
    assert _delta(before, after, "docschat_chat_refusals_total", reason="judgment") == 0
    assert _delta(before, after, "docschat_rate_limit_rejections_total", limit="hour") == 1
    # Never a question, an address or a raw path in a label.
    labels = {value for (_, pairs) in after for _, value in pairs}
    assert not any(word in " ".join(labels) for word in ("widget", "sync?", "127.0.0.1"))
    assert not ({"ip", "question", "path", "session"} & {name for (_, pairs) in after for name, _ in pairs})


def test_a_turn_without_guides_is_counted_as_a_refusal(clean_db, start_server, monkeypatch) -> None:
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")  # keyword-only: a nonsense question finds nothing
    seed(clean_db)
    monkeypatch.setenv("METRICS_ENABLED", "true")
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        before = _samples(client.get("/metrics").text)
        parts = client.post("/docs/chat", json={"message": NONSENSE}).text
        after = _samples(client.get("/metrics").text)
    assert "source-url" not in parts
    assert _delta(before, after, "docschat_chat_refusals_total", reason="judgment") == 1
    assert _delta(before, after, "docschat_stage_seconds_count", stage="first_guide") == 0
    assert _delta(before, after, "docschat_stage_seconds_count", stage="first_answer_token") == 1


async def test_sync_runs_and_durations_are_counted(clean_db, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    get_settings.cache_clear()
    settings = get_settings()
    repo = make_docs_repo(tmp_path / "repo", DOCS)
    ok_before = REGISTRY.get_sample_value("docschat_sync_runs_total", {"outcome": "ok"}) or 0
    failed_before = REGISTRY.get_sample_value("docschat_sync_runs_total", {"outcome": "failed"}) or 0
    count_before = REGISTRY.get_sample_value("docschat_sync_seconds_count") or 0
    pool = await create_pool(clean_db)
    try:
        await sync_corpus(pool, DocsSource(repo, "main", "docs"), settings, get_embedding_provider(settings))
        try:
            await sync_corpus(pool, DocsSource(repo, "no-such-branch", "docs"), settings, None)
        except Exception:  # noqa: BLE001 - the failure is what is counted
            pass
    finally:
        await pool.close()
    assert REGISTRY.get_sample_value("docschat_sync_runs_total", {"outcome": "ok"}) == ok_before + 1
    assert REGISTRY.get_sample_value("docschat_sync_runs_total", {"outcome": "failed"}) == failed_before + 1
    assert REGISTRY.get_sample_value("docschat_sync_seconds_count") == count_before + 2


@pytest.mark.slow
def test_two_workers_with_a_multiprocess_dir_report_every_workers_requests(clean_db, tmp_path, monkeypatch) -> None:
    import os
    import sys
    from pathlib import Path

    from tests.served import ServeProcess

    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    seed(clean_db)
    shared = tmp_path / "prometheus"
    shared.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RATE_LIMIT")}
    env.update(DATABASE_URL=clean_db, DOCSCHAT_HOME=str(tmp_path / "home"), EMBEDDING_PROVIDER="none",
               METRICS_ENABLED="true", PROMETHEUS_MULTIPROC_DIR=str(shared), LOG_LEVEL="warning",
               RATE_LIMIT_PER_HOUR="100", RATE_LIMIT_PER_DAY="100",
               PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    with ServeProcess([sys.executable, "-m", "app"], env, cwd=tmp_path, extra_args=["--workers", "2"]) as server:
        for _ in range(8):  # a new connection each: both workers answer some
            assert httpx.post(server.url + "/docs/chat", json={"message": QUESTION}, timeout=30).status_code == 200
        scrapes = [_samples(httpx.get(server.url + "/metrics", timeout=30).text) for _ in range(4)]
    key = ("docschat_http_requests_total", (("method", "POST"), ("route", "/docs/chat"), ("status", "200")))
    assert [s.get(key) for s in scrapes] == [8.0] * 4  # whichever worker answers the scrape
    assert len({p.name.split("_")[-1] for p in shared.glob("*.db")}) >= 2  # files of two worker pids
