"""The OpenAI-compatible provider and answerer: the real `openai` client against a fake server over HTTP."""

from __future__ import annotations

import asyncio
import math

import httpx
import pytest

from app.config import get_settings
from app.embeddings.providers import get_embedding_provider
from app.errors import EmbeddingError
from app.search.query_embedding import QueryEmbedder
from tests.fake_gemini import fake_vector
from tests.helpers import parse_sse
from tests.test_chat import seed


def _provider(monkeypatch, **env: str):
    monkeypatch.setenv("EMBEDDING_PROVIDER", "openai")
    monkeypatch.setenv("EMBEDDING_MAX_RETRIES", "2")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    get_settings.cache_clear()
    return get_embedding_provider(get_settings())


def _run(provider, call):
    """Run one provider call and close the client on the same event loop."""

    async def go():
        try:
            return await call
        finally:
            await provider.client.close()

    return asyncio.run(go())


def test_embeddings_ask_for_768_dimensions_by_default(fake_openai, monkeypatch) -> None:
    provider = _provider(monkeypatch)
    vectors = _run(provider, provider.embed_documents(["embed the widget", "run a sync", "colors"]))
    assert [len(v) for v in vectors] == [768, 768, 768]
    (call,) = fake_openai.calls("/v1/embeddings")
    assert call["body"]["dimensions"] == 768 and call["body"]["model"] == "text-embedding-3-small"
    assert call["body"]["input"] == ["embed the widget", "run a sync", "colors"]
    assert call["authorization"] == "Bearer test-key"
    assert provider.model == "text-embedding-3-small@768"


async def test_a_question_longer_than_the_model_takes_is_embedded_from_its_start(pool, fake_openai, monkeypatch
                                                                                ) -> None:
    """A pasted log refused by a small-context server (HTTP 400) left the question to keyword alone."""
    provider = _provider(monkeypatch)
    fake_openai.max_input_chars = 600
    question = "Why does my job fail? " + " ".join(f"frame{n} in worker.py line {n}" for n in range(70))
    try:
        vector = await QueryEmbedder(provider).embed(pool, question)
    finally:
        await provider.client.close()
    sent = [c["body"]["input"][0] for c in fake_openai.calls("/v1/embeddings")]
    *refused, accepted = sent  # whole, half, ...: each the start of the question, till one fits
    assert refused and all(len(t) > 600 for t in refused) and len(accepted) <= 600
    assert all(question.startswith(t) for t in sent)
    assert vector == pytest.approx(fake_vector(accepted, 768), abs=1e-6)


def test_shorter_native_vectors_are_zero_padded_with_cosine_unchanged(fake_openai, monkeypatch) -> None:
    from tests.fake_gemini import fake_vector

    provider = _provider(monkeypatch, OPENAI_EMBEDDING_DIMENSIONS="0", OPENAI_EMBEDDING_MODEL="nomic-embed-text")
    first, second = _run(provider, provider.embed_documents(["embed the widget script", "widget script colors"]))
    assert "dimensions" not in fake_openai.calls("/v1/embeddings")[0]["body"]
    assert len(first) == 768 and first[384:] == [0.0] * 384
    native = fake_vector("embed the widget script", 384), fake_vector("widget script colors", 384)
    cosine = lambda a, b: (  # noqa: E731
        sum(x * y for x, y in zip(a, b, strict=True)) / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b)))
    assert cosine(first, second) == pytest.approx(cosine(*native))
    assert provider.model == "nomic-embed-text@native"


def test_longer_vectors_are_refused_naming_the_setting(fake_openai, monkeypatch) -> None:
    fake_openai.native_dimensions = 1024
    provider = _provider(monkeypatch, OPENAI_EMBEDDING_DIMENSIONS="0")
    with pytest.raises(EmbeddingError, match=r"1024 dimensions.*OPENAI_EMBEDDING_DIMENSIONS"):
        _run(provider, provider.embed_query("embed the widget"))


def test_429_with_retry_after_is_waited_out_then_succeeds(fake_openai, monkeypatch) -> None:
    fake_openai.fail_statuses = [429]
    fake_openai.retry_after = "1"
    provider = _provider(monkeypatch)
    assert len(_run(provider, provider.embed_query("embed the widget"))) == 768
    first, second = fake_openai.calls("/v1/embeddings")
    assert second["at"] - first["at"] >= 0.95  # the client waited as told, not its own shorter backoff


def test_quota_exhausted_after_retries_is_one_clear_error(fake_openai, monkeypatch) -> None:
    fake_openai.fail_statuses = [429] * 10
    fake_openai.retry_after = "0"
    provider = _provider(monkeypatch, EMBEDDING_MAX_RETRIES="1")
    with pytest.raises(EmbeddingError, match=r"quota exhausted \(HTTP 429"):
        _run(provider, provider.embed_query("embed the widget"))
    assert len(fake_openai.calls("/v1/embeddings")) == 2


def test_bad_key_is_one_clear_error_without_retries_or_the_key(fake_openai, monkeypatch) -> None:
    provider = _provider(monkeypatch, OPENAI_API_KEY="bad-key")
    with pytest.raises(EmbeddingError) as caught:
        _run(provider, provider.embed_query("embed the widget"))
    assert "rejected the API key (HTTP 401): check OPENAI_API_KEY" in str(caught.value)
    assert "bad-key" not in str(caught.value)
    assert len(fake_openai.calls("/v1/embeddings")) == 1


def test_chat_streams_the_answer_of_an_openai_compatible_model(fake_openai, clean_db, start_server, monkeypatch
                                                               ) -> None:
    monkeypatch.setenv("EMBEDDING_PROVIDER", "openai")
    seed(clean_db)
    server = start_server()
    assert httpx.get(server.url + "/healthz").json()["answerer"] == "openai"
    response = httpx.post(server.url + "/docs/chat", json={"message": "How do I embed the widget?"}, timeout=30)
    assert response.status_code == 200
    parts = [p for p in parse_sse(response.text) if isinstance(p, dict)]
    kinds = [p["type"] for p in parts]
    assert kinds.index("source-url") < kinds.index("text-delta") and kinds[-1] == "finish"
    assert "".join(p["delta"] for p in parts if p["type"] == "text-delta") == "".join(fake_openai.answer_parts)
    (chat,) = fake_openai.calls("/v1/chat/completions")
    assert chat["body"]["stream"] is True and chat["body"]["model"] == "gpt-4o-mini"
    messages = chat["body"]["messages"]
    assert messages[0]["role"] == "system" and "<excerpts-" in messages[-1]["content"]
    assert "Chat widget" in messages[-1]["content"] and "How do I embed the widget?" in messages[-1]["content"]
    # The question was embedded by the same server (sync made the other embedding calls).
    assert any(c["body"]["input"] == ["How do I embed the widget?"] for c in fake_openai.calls("/v1/embeddings"))


def test_chat_with_a_bad_key_keeps_the_guides_and_reports_the_failure(fake_openai, clean_db, start_server,
                                                                      monkeypatch) -> None:
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    seed(clean_db)
    monkeypatch.setenv("OPENAI_API_KEY", "bad-key")
    server = start_server()
    response = httpx.post(server.url + "/docs/chat", json={"message": "How do I embed the widget?"}, timeout=30)
    parts = [p for p in parse_sse(response.text) if isinstance(p, dict)]
    assert [p["title"] for p in parts if p["type"] == "source-url"][0] == "Chat widget"
    assert parts[-1]["type"] == "error" and "summary is unavailable" in parts[-1]["errorText"]
    assert len(fake_openai.calls("/v1/chat/completions")) == 1
