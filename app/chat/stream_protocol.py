"""The Vercel AI SDK UI message stream protocol (v1) over server-sent events.

Parts: start, source-url (one per Relevant Guide, before any text; its page's place in the site
in `providerMetadata.docschat.place`), text-start, text-delta…,
text-end, finish (with `messageMetadata`: confidence, would_answer, degraded, and `handoff` when
the docs did not cover the question and HANDOFF_URL is set), then the `[DONE]` sentinel; an
`error` part reports a failure mid-stream. `data-status` parts (the protocol's `data-*` type,
`transient`: not kept in the message) say what the turn is doing while it works; a client that
does not know them skips them.
"""

from __future__ import annotations

import json
from typing import Any

HEADERS = {
    "x-vercel-ai-ui-message-stream": "v1",
    "cache-control": "no-cache",
    "x-accel-buffering": "no",  # proxies must not buffer the stream
}
MEDIA_TYPE = "text/event-stream"


def sse(part: dict[str, Any]) -> str:
    return f"data: {json.dumps(part, ensure_ascii=False, separators=(',', ':'))}\n\n"


def start(message_id: str) -> dict[str, Any]:
    return {"type": "start", "messageId": message_id}


def source_url(source_id: str, url: str, title: str, place: tuple[str, ...] = ()) -> dict[str, Any]:
    """A Relevant Guide. Its page's place in the site (tab, group), when it has one, travels in the
    part's `providerMetadata` (the protocol's one extension point; a client that does not know it
    reads the part as before): `{"docschat": {"place": ["Get started", "Setup"]}}`."""
    part: dict[str, Any] = {"type": "source-url", "sourceId": source_id, "url": url, "title": title}
    if place:
        part["providerMetadata"] = {"docschat": {"place": list(place)}}
    return part


def text_start(text_id: str) -> dict[str, Any]:
    return {"type": "text-start", "id": text_id}


def text_delta(text_id: str, delta: str) -> dict[str, Any]:
    return {"type": "text-delta", "id": text_id, "delta": delta}


def text_end(text_id: str) -> dict[str, Any]:
    return {"type": "text-end", "id": text_id}


def finish(metadata: dict[str, Any] | None = None) -> dict[str, Any]:
    """The last part; `messageMetadata` (optional in the protocol) travels with the message."""
    return {"type": "finish", "messageMetadata": metadata} if metadata is not None else {"type": "finish"}


def data_status(text: str, state: str = "working") -> dict[str, Any]:
    """A caption of the work in progress ("Searching the documentation"); state: working, done, unavailable."""
    return {"type": "data-status", "data": {"text": text, "state": state}, "transient": True}


def error(text: str) -> dict[str, Any]:
    return {"type": "error", "errorText": text}


DONE = "data: [DONE]\n\n"
