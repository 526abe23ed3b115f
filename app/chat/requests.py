"""Validating the chat request body: clear 4xx errors, never a 500."""

from __future__ import annotations

import json
from typing import Any

from app.search.terms import clip_question

MAX_BODY_BYTES = 16 * 1024


class BadChatRequest(ValueError):
    """The body is not a usable chat request; the message says what was wrong."""

    status = 400
    error = "bad_request"


class UnsupportedMediaType(BadChatRequest):
    """The body is not declared as JSON."""

    status = 415
    error = "unsupported_media_type"


def check_content_type(content_type: str | None) -> None:
    """Only `application/json` (parameters such as charset=utf-8 allowed) is a chat request."""
    media_type = (content_type or "").split(";", 1)[0].strip().lower()
    if media_type != "application/json":
        raise UnsupportedMediaType(
            f"content-type must be application/json, not {media_type or 'missing'}"[:200]
        )


def _text_of_ui_message(message: Any) -> str | None:
    """The text of an AI SDK UIMessage ({role, parts: [{type: "text", text}]}), for useChat clients."""
    if not isinstance(message, dict) or message.get("role") != "user":
        return None
    parts = message.get("parts")
    if isinstance(parts, list):
        texts = [p.get("text") for p in parts if isinstance(p, dict) and p.get("type") == "text"]
        if texts and all(isinstance(t, str) for t in texts):
            return "".join(t for t in texts if isinstance(t, str))
    content = message.get("content")
    return content if isinstance(content, str) else None


def parse_chat_body(body: bytes, content_type: str | None = "application/json") -> str:
    """The question from `{"message": "..."}` (or an AI SDK `messages` list), clipped to 2000 chars.

    Everything is checked here, before any quota is used or any row written: a request that
    fails gets a 4xx naming what was wrong.
    """
    check_content_type(content_type)
    if len(body) > MAX_BODY_BYTES:
        raise BadChatRequest(f"request body is {len(body)} bytes; the limit is {MAX_BODY_BYTES}")
    try:
        data = json.loads(body.decode("utf-8"))
    except RecursionError:
        raise BadChatRequest("body is JSON nested too deeply") from None
    except (UnicodeDecodeError, ValueError):  # ValueError: also integers past Python's digit limit
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
    return parse_question(message)


def parse_question(message: str) -> str:
    """A question as asked (the chat body's message, the terminal's argument): a NUL made a space
    (as retrieval does: "rotate\\0key" is two words), stripped, clipped to 2000 characters;
    BadChatRequest when empty or not storable."""
    message = message.replace("\x00", " ").strip()
    if not message:
        raise BadChatRequest("'message' is empty")
    question = clip_question(message)
    try:
        question.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate such as "\ud800": no database can store it
        raise BadChatRequest("'message' contains invalid Unicode (a lone surrogate)") from None
    return question
