"""A local fake of the Gemini HTTP API, for the real google-genai client (via GEMINI_BASE_URL).

It serves batchEmbedContents (deterministic bag-of-words vectors, so similar texts are near),
streamGenerateContent (SSE) and generateContent, records every request, and fails on demand
(status codes, or a stream cut after some parts). Scripted model steps (`replies`) may carry
function calls, for tool loops.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
from dataclasses import dataclass, field
from typing import Any

from tests.helpers import JSONRequestHandler, LoopbackHTTPServer


def fake_vector(text: str, dimensions: int = 768) -> list[float]:
    vector = [0.0] * dimensions
    for word in re.findall(r"[a-z0-9]{3,}", text.lower()):
        digest = hashlib.sha256(word.encode()).digest()
        vector[int.from_bytes(digest[:4], "big") % dimensions] += 1.0
    norm = math.sqrt(sum(v * v for v in vector)) or 1.0
    return [v / norm for v in vector] if any(vector) else [1.0 / math.sqrt(dimensions)] * dimensions


@dataclass
class FakeGemini:
    requests: list[dict[str, Any]] = field(default_factory=list)
    fail_statuses: list[int] = field(default_factory=list)  # consumed one per request
    retry_after: str | None = None
    answer_parts: list[str] = field(default_factory=lambda: ["The answer ", "comes from ", "the excerpts."])
    cut_stream_after: int | None = None  # send this many parts, then an error
    part_delay_seconds: float = 0.0  # pause before each part after the first
    embed_gate: threading.Event | None = None  # when an Event, document embeddings wait until it is set
    embeds_waiting: int = 0  # document embed requests that reached the gate
    first_part_delay_seconds: float = 0.0  # a hung endpoint: headers sent, then nothing this long
    released: threading.Event = field(default_factory=threading.Event)  # set on exit: pauses end
    # Scripted streamed replies, one consumed per streamGenerateContent request: each a list of
    # Gemini part objects, e.g. [{"functionCall": {"name": "search_docs", "args": {"query": "x"}}}]
    # or [{"text": "…"}]. When empty, `answer_parts` is streamed.
    replies: list[list[dict[str, Any]]] = field(default_factory=list)
    # The text of a (non-streamed) generateContent reply; None: 404 like before.
    generate_text: str | None = None
    url: str = ""

    def embed_calls(self) -> list[dict[str, Any]]:
        return [r for r in self.requests if r["path"].endswith(":batchEmbedContents")]

    def generate_calls(self) -> list[dict[str, Any]]:
        return [r for r in self.requests if ":streamGenerateContent" in r["path"]]

    def plain_generate_calls(self) -> list[dict[str, Any]]:
        return [r for r in self.requests if r["path"].split("?")[0].endswith(":generateContent")]


def _handler(state: FakeGemini, lock: threading.Lock) -> type[JSONRequestHandler]:
    class Handler(JSONRequestHandler):
        def do_POST(self) -> None:
            body = self._read_json()
            with lock:
                state.requests.append({"path": self.path, "body": body, "key": self.headers.get("x-goog-api-key")})
                failure = state.fail_statuses.pop(0) if state.fail_statuses else None
            if self.headers.get("x-goog-api-key") == "bad-key":
                self._json(400, {"error": {"code": 400, "message": "API key not valid. Please pass a valid API key.",
                                           "status": "INVALID_ARGUMENT"}})
                return
            if failure:
                headers = {"retry-after": state.retry_after} if state.retry_after else {}
                self._json(failure, {"error": {"code": failure, "message": "simulated failure",
                                               "status": "RESOURCE_EXHAUSTED" if failure == 429 else "UNAVAILABLE"}},
                           headers)
                return
            if self.path.split("?")[0].endswith(":batchEmbedContents"):
                documents = any(r.get("taskType") == "RETRIEVAL_DOCUMENT" for r in body.get("requests", []))
                if state.embed_gate is not None and documents:
                    with lock:
                        state.embeds_waiting += 1
                    state.embed_gate.wait(timeout=60)
                vectors = []
                for request in body.get("requests", []):
                    text = " ".join(p.get("text", "") for p in request.get("content", {}).get("parts", []))
                    vectors.append({"values": fake_vector(text, request.get("outputDimensionality") or 768)})
                self._json(200, {"embeddings": vectors})
                return
            if ":streamGenerateContent" in self.path:
                with lock:
                    scripted = state.replies.pop(0) if state.replies else None
                if scripted is not None:
                    self._stream_parts(scripted)
                else:
                    self._stream()
                return
            if self.path.split("?")[0].endswith(":generateContent") and state.generate_text is not None:
                self._json(200, {"candidates": [{"content": {"role": "model", "parts": [{"text": state.generate_text}]},
                                                 "index": 0, "finishReason": "STOP"}]})
                return
            self._json(404, {"error": {"code": 404, "message": f"no fake for {self.path}", "status": "NOT_FOUND"}})

        def _stream_parts(self, parts: list[dict[str, Any]]) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("connection", "close")
            self.end_headers()
            for part in parts:
                event = {"candidates": [{"content": {"role": "model", "parts": [part]}, "index": 0}]}
                try:
                    self.wfile.write(f"data: {json.dumps(event)}\r\n\r\n".encode())
                    self.wfile.flush()
                except OSError:
                    return
            self.close_connection = True

        def _stream(self) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("connection", "close")
            self.end_headers()
            if state.first_part_delay_seconds:
                state.released.wait(state.first_part_delay_seconds)
            for index, part in enumerate(state.answer_parts):
                if index and state.part_delay_seconds:
                    state.released.wait(state.part_delay_seconds)
                if state.cut_stream_after is not None and index >= state.cut_stream_after:
                    # A mid-stream failure: an error object, then the connection closes.
                    event: dict[str, object] = {
                        "error": {"code": 500, "message": "simulated mid-stream failure", "status": "INTERNAL"}}
                    self.wfile.write(f"data: {json.dumps(event)}\r\n\r\n".encode())
                    self.wfile.flush()
                    self.close_connection = True
                    return
                event = {"candidates": [{"content": {"role": "model", "parts": [{"text": part}]}, "index": 0}]}
                try:
                    self.wfile.write(f"data: {json.dumps(event)}\r\n\r\n".encode())
                    self.wfile.flush()
                except OSError:  # the client went away
                    return
            self.close_connection = True

    return Handler


class FakeGeminiServer:
    def __init__(self) -> None:
        self.state = FakeGemini()
        self._http = LoopbackHTTPServer(_handler(self.state, threading.Lock()))
        self.state.url = self._http.origin + "/"

    def __enter__(self) -> FakeGemini:
        self._http.start()
        return self.state

    def __exit__(self, *exc: object) -> None:
        self.state.released.set()
        self._http.stop()
