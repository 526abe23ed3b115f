"""Feedback on answers: a visitor's Yes/No ("Helpful?") on one assistant message, and an optional comment.

Stored against the message (public.docs_chat_feedback, sql/014_baseline.sql): no IP, no session of
its own, nothing about the visitor beyond what they typed; it goes with the session (Clear Chat).
A visitor rates only the answers of their own session (the docs_chat_id cookie) and audiences.
The admin console and `docschat feedback` list it with the question it answered.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import asyncpg

from app.errors import DocschatError
from app.text import storable_text

MAX_COMMENT_CHARS = 1000
MAX_BODY_BYTES = 8192
RATINGS = {"up": 1, "down": -1}


class BadFeedback(DocschatError):
    """A feedback body that cannot be recorded; the message says what was wrong."""


@dataclass(frozen=True)
class FeedbackRequest:
    message_key: str
    rating: int  # 1 or -1
    comment: str | None


def parse_feedback(body: bytes) -> FeedbackRequest:
    """`{"messageId": "...", "rating": "up"|"down", "comment": "..."}` (comment optional)."""
    if len(body) > MAX_BODY_BYTES:
        raise BadFeedback(f"the body is larger than {MAX_BODY_BYTES} bytes")
    try:
        data = json.loads(body)
    except RecursionError:  # "[[[[…": deeper than Python's stack; not a ValueError
        raise BadFeedback("the body is JSON nested too deeply") from None
    except (ValueError, UnicodeDecodeError):
        raise BadFeedback("the body is not JSON") from None
    if not isinstance(data, dict):
        raise BadFeedback("the body must be a JSON object with messageId and rating")
    key = data.get("messageId")
    if not isinstance(key, str) or not (0 < len(key) <= 64) or not key.isascii() or not key.isalnum():
        raise BadFeedback("messageId must be the id of an answer (the stream's messageId)")
    rating = data.get("rating")
    if not isinstance(rating, str) or rating not in RATINGS:  # {} or [] are not hashable: checked first
        raise BadFeedback('rating must be "up" or "down"')
    comment = data.get("comment")
    if comment is not None and not isinstance(comment, str):
        raise BadFeedback("comment must be a string")
    if comment is not None:
        comment = storable_text(comment, nul="").strip()[:MAX_COMMENT_CHARS] or None
    return FeedbackRequest(key, RATINGS[rating], comment)


async def record_feedback(
    conn: asyncpg.Connection, session_id: uuid.UUID | None, request: FeedbackRequest, audiences: list[str] | None
) -> bool:
    """Record (or change) the rating of an answer of this session; False when the session has no
    such answer (another session's, a question, or none)."""
    if session_id is None:
        return False
    stored = sorted(set(audiences)) if audiences is not None else None  # as sessions store them
    try:
        message_id = await conn.fetchval(
            "select public.record_docs_chat_feedback($1, $2, $3::smallint, $4, $5)",
            session_id, request.message_key, request.rating, request.comment, stored,
        )
    except asyncpg.ForeignKeyViolationError:  # Clear Chat deleted the answer as it was being rated
        return False
    return message_id is not None


@dataclass(frozen=True)
class Feedback:
    message_id: int
    rating: int
    comment: str | None
    question: str | None
    answer: str
    pages: list[str]
    updated_at: datetime

    def to_dict(self) -> dict[str, Any]:
        return {
            "message_id": self.message_id, "rating": "up" if self.rating > 0 else "down", "comment": self.comment,
            "question": self.question, "answer": self.answer, "pages": self.pages,
            "updated_at": self.updated_at.isoformat(),
        }


async def list_feedback(conn: asyncpg.Connection, since: timedelta | None = None, limit: int = 500) -> list[Feedback]:
    """Feedback given within `since` (all when None), newest first."""
    rows = await conn.fetch(
        "select message_id, rating, comment, question, answer, sources::text as sources, updated_at"
        " from public.docs_chat_feedback_list($1, $2)",
        since, limit,
    )
    return [
        Feedback(r["message_id"], r["rating"], r["comment"], r["question"], r["answer"],
                 [str(s.get("url", "")) for s in json.loads(r["sources"]) if isinstance(s, dict)], r["updated_at"])
        for r in rows
    ]


def summarize(items: list[Feedback]) -> dict[str, int]:
    return {"up": sum(1 for f in items if f.rating > 0), "down": sum(1 for f in items if f.rating < 0)}
