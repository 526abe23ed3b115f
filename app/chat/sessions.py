"""Chat sessions (one per browser, named by the docs_chat_id cookie) and their messages."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any

import asyncpg

COOKIE_NAME = "docs_chat_id"


@dataclass(frozen=True)
class ChatMessage:
    role: str
    content: str
    sources: list[dict[str, Any]]
    created_at: str
    key: str | None = None  # an assistant message's stream messageId: what feedback names it by
    rating: int | None = None  # the visitor's feedback on an answer: 1 helpful, -1 not

    def to_dict(self) -> dict[str, Any]:
        extra: dict[str, Any] = {"id": self.key} if self.key else {}
        if self.rating:
            extra["rating"] = "up" if self.rating > 0 else "down"
        return {"role": self.role, "content": self.content, "sources": self.sources, "created_at": self.created_at,
                **extra}


def parse_session_id(raw: str | None) -> uuid.UUID | None:
    """The cookie's id when it is a well-formed UUID; anything else starts a new session."""
    if not raw:
        return None
    try:
        return uuid.UUID(raw.strip())
    except (ValueError, AttributeError):
        return None


async def upsert_session(
    conn: asyncpg.Connection, session_id: uuid.UUID | None, audiences: list[str] | None
) -> uuid.UUID:
    """The session to store a turn in: `session_id` when it is a session of these `audiences` (or
    its row is gone: a leftover cookie keeps its id); a new one when it belongs to other audiences,
    whose history this asker may not read (None: every audience, the CLI's)."""
    session_id = session_id or uuid.uuid4()
    kept = await conn.fetchval(
        "insert into public.docs_chat_session (id, audiences) values ($1, $2)"
        " on conflict (id) do update set updated_at = now()"
        " where public.docs_chat_session.audiences is not distinct from excluded.audiences"
        " returning id",
        session_id, _stored(audiences),
    )
    return kept or await upsert_session(conn, None, audiences)


def _stored(audiences: list[str] | None) -> list[str] | None:
    """Audiences as a session stores them: sorted, once each, so that equal sets compare equal."""
    return sorted(set(audiences)) if audiences is not None else None


async def add_message(
    conn: asyncpg.Connection, session_id: uuid.UUID, role: str, content: str, sources: list[dict[str, Any]] | None = None,
    key: str | None = None,
) -> int:
    """Store one message (an answer with its stream messageId, `key`); its id (messages of a session
    are ordered by id)."""
    return await conn.fetchval(
        "insert into public.docs_chat_message (session_id, role, content, sources, message_key)"
        " values ($1, $2, $3, $4::jsonb, $5) returning id",
        session_id, role, content, json.dumps(sources or []), key,
    )


async def list_messages(
    conn: asyncpg.Connection, session_id: uuid.UUID, audiences: list[str] | None,
    limit: int | None = None, before: int | None = None,
) -> list[ChatMessage]:
    """The session's messages, oldest first (the newest `limit` when given; only those stored before
    message `before` when given); none when the session was opened for other `audiences`."""
    rows = await conn.fetch(
        "select newest.role, newest.content, newest.sources::text as sources, newest.created_at, newest.message_key,"
        "       f.rating from ("
        "  select m.id, m.role, m.content, m.sources, m.created_at, m.message_key from public.docs_chat_message m"
        "  join public.docs_chat_session s on s.id = m.session_id"
        "  where m.session_id = $1 and s.audiences is not distinct from $4::text[]"
        "    and ($3::bigint is null or m.id < $3)"
        "  order by m.id desc limit $2"
        ") newest left join public.docs_chat_feedback f on f.message_id = newest.id order by newest.id",
        session_id, limit, before, _stored(audiences),
    )
    return [ChatMessage(r["role"], r["content"], json.loads(r["sources"]), r["created_at"].isoformat(), r["message_key"],
                        r["rating"])
            for r in rows]


async def delete_session(conn: asyncpg.Connection, session_id: uuid.UUID, audiences: list[str] | None) -> bool:
    """Delete the session and (by cascade) its messages, when it is one of these `audiences`."""
    status = await conn.execute(
        "delete from public.docs_chat_session where id = $1 and audiences is not distinct from $2::text[]",
        session_id, _stored(audiences),
    )
    return status.endswith(" 1")


async def questions_before(
    conn: asyncpg.Connection, message_id: int, limit: int
) -> tuple[list[str], list[str] | None] | None:
    """The user questions of `message_id`'s conversation up to that message (the last `limit`,
    oldest first: the last is the one it answered) and the conversation's audiences (None: every
    audience); None when there is no such message."""
    audiences = await conn.fetchrow(
        "select s.audiences from public.docs_chat_message m join public.docs_chat_session s on s.id = m.session_id"
        " where m.id = $1", message_id,
    )
    if audiences is None:
        return None
    rows = await conn.fetch(
        "select q.content from public.docs_chat_message m"
        " join public.docs_chat_message q on q.session_id = m.session_id and q.role = 'user' and q.id < m.id"
        " where m.id = $1 order by q.id desc limit $2",
        message_id, limit,
    )
    return [r["content"] for r in reversed(rows)], audiences["audiences"]
