"""Validating the chat request body: clear 4xx errors, never a 500."""

from __future__ import annotations

import json
from typing import Any

from app.search.terms import clip_question

MAX_BODY_BYTES = 16 * 1024


class BadChatRequest(ValueError):
    """The body is not a usable chat request; the message says what was wrong."""


def _text_of_ui_message(message: Any) -> str | None:
    """The text of an AI SDK UIMessage ({role, parts: [{type: "text", text}]}), for useChat clients."""
    if not isinstance(message, dict) or message.get("role") != "user":
        return None
    parts = message.get("parts")
    if isinstance(parts, list):
        texts = [p.get("text") for p in parts if isinstance(p, dict) and p.get("type") == "text"]
        if texts and all(isinstance(t, str) for t in texts):
            return "".join(texts)
    content = message.get("content")
    return content if isinstance(content, str) else None


def parse_chat_body(body: bytes) -> str:
    """The question from `{"message": "..."}` (or an AI SDK `messages` list), clipped to 2000 chars."""
    if len(body) > MAX_BODY_BYTES:
        raise BadChatRequest(f"request body is {len(body)} bytes; the limit is {MAX_BODY_BYTES}")
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise BadChatRequest('body must be JSON like {"message": "your question"}') from None
    if not isinstance(data, dict):
        raise BadChatRequest('body must be a JSON object like {"message": "your question"}')
    message = data.get("message")
    if message is None and isinstance(data.get("messages"), list) and data["messages"]:
        message = _text_of_ui_message(data["messages"][-1])
        if message is None:
            raise BadChatRequest("the last entry of 'messages' must be a user message with text parts")
    if message is None:
        raise BadChatRequest("'message' is required")
    if not isinstance(message, str):
        raise BadChatRequest(f"'message' must be a string, not {type(message).__name__}")
    message = message.replace("\x00", "").strip()
    if not message:
        raise BadChatRequest("'message' is empty")
    return clip_question(message)
