"""A local fake OpenAI-compatible HTTP server, for the real `openai` client (via OPENAI_BASE_URL).

Serves /v1/embeddings (deterministic bag-of-words vectors of the requested or a native size) and
/v1/chat/completions with stream=true (SSE chunks, then [DONE]); records every request; answers
401 to the key "bad-key"; 400 to inputs over max_input_chars; fails on demand with a status and a Retry-After header.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from tests.fake_gemini import fake_vector
from tests.helpers import JSONRequestHandler, LoopbackHTTPServer


@dataclass
class FakeOpenAI:
    requests: list[dict[str, Any]] = field(default_factory=list)
    fail_statuses: list[int] = field(default_factory=list)  # consumed one per request
    retry_after: str | None = None
    native_dimensions: int = 384  # when the request names no `dimensions`
    max_input_chars: int | None = None  # longer inputs are refused with a 400, as OpenAI refuses too many tokens
    answer_parts: list[str] = field(default_factory=lambda: ["Add one ", "script tag ", "to your pages [1]."])
    # Scripted streamed replies, one consumed per streamed chat request (e.g. a verifier's verdict
    # first, then the answer); when empty, `answer_parts` is streamed.
    replies: list[list[str]] = field(default_factory=list)
    url: str = ""

    def calls(self, path: str) -> list[dict[str, Any]]:
        return [r for r in self.requests if r["path"] == path]


def _handler(state: FakeOpenAI, lock: threading.Lock) -> type[JSONRequestHandler]:
    class Handler(JSONRequestHandler):
        def do_POST(self) -> None:
            body = self._read_json()
            path = self.path.split("?")[0]
            with lock:
                state.requests.append({"path": path, "body": body, "at": time.monotonic(),
                                       "authorization": self.headers.get("authorization")})
                failure = state.fail_statuses.pop(0) if state.fail_statuses else None
            if self.headers.get("authorization") == "Bearer bad-key":
                self._json(401, {"error": {"message": "Incorrect API key provided: bad-key.", "type":
                                           "invalid_request_error", "param": None, "code": "invalid_api_key"}})
                return
            if failure:
                headers = {"retry-after": state.retry_after} if state.retry_after else {}
                self._json(failure, {"error": {"message": "simulated failure", "type": "rate_limit_exceeded"
                                               if failure == 429 else "server_error", "param": None, "code": None}},
                           headers)
                return
            if path == "/v1/embeddings":
                texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
                longest = max(len(t) for t in texts)
                if state.max_input_chars is not None and longest > state.max_input_chars:
                    self._json(400, {"error": {"message": f"This model's maximum context length is "
                                               f"{state.max_input_chars} tokens, however you requested {longest} "
                                               "tokens. Please reduce your prompt.", "type": "invalid_request_error",
                                               "param": None, "code": None}})
                    return
                size = body.get("dimensions") or state.native_dimensions
                data = [{"object": "embedding", "index": i, "embedding": fake_vector(t, size)}
                        for i, t in enumerate(texts)]
                self._json(200, {"object": "list", "data": data, "model": body["model"],
                                 "usage": {"prompt_tokens": 1, "total_tokens": 1}})
                return
            if path == "/v1/chat/completions" and body.get("stream"):
                self._stream(body["model"])
                return
            self._json(404, {"error": {"message": f"no fake for {path}", "type": "invalid_request_error",
                                       "param": None, "code": None}})

        def _stream(self, model: str) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("connection", "close")
            self.end_headers()
            base = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0, "model": model}
            chunks = [{**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""},
                                            "finish_reason": None}]}]
            with lock:
                parts = state.replies.pop(0) if state.replies else state.answer_parts
            chunks += [{**base, "choices": [{"index": 0, "delta": {"content": part}, "finish_reason": None}]}
                       for part in parts]
            chunks.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
            try:
                for chunk in chunks:
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
            except OSError:  # the client went away
                return
            self.close_connection = True

    return Handler


class FakeOpenAIServer:
    def __init__(self) -> None:
        self.state = FakeOpenAI()
        self._http = LoopbackHTTPServer(_handler(self.state, threading.Lock()))
        self.state.url = self._http.origin + "/v1"

    def __enter__(self) -> FakeOpenAI:
        self._http.start()
        return self.state

    def __exit__(self, *exc: object) -> None:
        self._http.stop()
