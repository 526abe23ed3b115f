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

    def to_dict(self) -> dict[str, Any]:
        return {"role": self.role, "content": self.content, "sources": self.sources, "created_at": self.created_at}


def parse_session_id(raw: str | None) -> uuid.UUID | None:
    """The cookie's id when it is a well-formed UUID; anything else starts a new session."""
    if not raw:
        return None
    try:
        return uuid.UUID(raw.strip())
    except (ValueError, AttributeError):
        return None


async def upsert_session(conn: asyncpg.Connection, session_id: uuid.UUID | None) -> uuid.UUID:
    """Ensure the session row exists (a leftover cookie whose row is gone keeps its id)."""
    session_id = session_id or uuid.uuid4()
    await conn.execute(
        "insert into public.docs_chat_session (id) values ($1)"
        " on conflict (id) do update set updated_at = now()",
        session_id,
    )
    return session_id


async def add_message(
    conn: asyncpg.Connection, session_id: uuid.UUID, role: str, content: str, sources: list[dict[str, Any]] | None = None
) -> int:
    """Store one message; its id (messages of a session are ordered by id)."""
    return await conn.fetchval(
        "insert into public.docs_chat_message (session_id, role, content, sources) values ($1, $2, $3, $4::jsonb)"
        " returning id",
        session_id, role, content, json.dumps(sources or []),
    )


async def list_messages(
    conn: asyncpg.Connection, session_id: uuid.UUID, limit: int | None = None, before: int | None = None
) -> list[ChatMessage]:
    """The session's messages, oldest first (the newest `limit` when given; only those stored before
    message `before` when given)."""
    rows = await conn.fetch(
        "select role, content, sources::text as sources, created_at from ("
        "  select id, role, content, sources, created_at from public.docs_chat_message"
        "  where session_id = $1 and ($3::bigint is null or id < $3) order by id desc limit $2"
        ") newest order by id",
        session_id, limit, before,
    )
    return [ChatMessage(r["role"], r["content"], json.loads(r["sources"]), r["created_at"].isoformat()) for r in rows]


async def delete_session(conn: asyncpg.Connection, session_id: uuid.UUID) -> bool:
    """Delete the session and (by cascade) its messages."""
    status = await conn.execute("delete from public.docs_chat_session where id = $1", session_id)
    return status.endswith(" 1")
