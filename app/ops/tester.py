"""The retrieval tester: a question → what retrieval found, why, and what the model would be given."""

from __future__ import annotations

import re
from typing import Any

from app.chat.answerers import format_excerpts
from app.chat.turn import model_excerpts
from app.config import Settings
from app.errors import DocschatError
from app.search.retrieve import Retriever

_AUDIENCE = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")


class BadTesterRequest(DocschatError):
    """The tester's question or audience is not usable."""


def parse_audiences(raw: str | None) -> list[str] | None:
    """`a,b` → ["a", "b"]; empty → None (every audience: the operator's view)."""
    if raw is None or not raw.strip():
        return None
    names = [a.strip().lower() for a in raw.split(",") if a.strip()]
    bad = [a for a in names if not _AUDIENCE.fullmatch(a)]
    if bad:
        raise BadTesterRequest(f"audience {bad[0][:40]!r} is not a name (letters, digits, - and _, at most 40)")
    return names


async def test_retrieval(
    retriever: Retriever, settings: Settings, question: str, audiences: list[str] | None
) -> dict[str, Any]:
    """Retrieval explained (both legs' ranks, fused scores, pages kept and why) plus the excerpts
    exactly as the chat would put them in front of the model."""
    if not question.strip():
        raise BadTesterRequest("q is empty: type a question")
    retrieval = await retriever.retrieve(question, public_only=audiences == ["public"])
    data = retrieval.to_dict(explain=True)
    excerpts = model_excerpts(retrieval, settings)
    data["audiences"] = audiences
    data["model_input"] = {
        "excerpts": [{"number": e.number, "title": e.title, "url": e.url, "heading": e.heading, "text": e.text}
                     for e in excerpts],
        "prompt": format_excerpts(excerpts) if excerpts else "",
    }
    return data
