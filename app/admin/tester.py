"""The retrieval tester: a question → what retrieval found, why, and what the model would be given."""

from __future__ import annotations

from typing import Any

from app.chat.turn import model_excerpts
from app.config import Settings
from app.corpus.sources import parse_audience_filter
from app.errors import DocschatError
from app.judge.excerpt import format_excerpts
from app.search.conversation import QueryRewriter, answer_check_of, retrieve_in_conversation
from app.search.retrieve import Retriever


class BadTesterRequest(DocschatError):
    """The tester's question or audience is not usable."""


def tester_audiences(raw: str | None) -> list[str] | None:
    """`a,b` → ["a", "b"]; empty → None (every audience: the operator's view)."""
    try:
        return parse_audience_filter(raw)
    except ValueError as exc:
        raise BadTesterRequest(f"audience: {str(exc)[:200]}") from None


async def explain_retrieval(
    retriever: Retriever, settings: Settings, question: str, audiences: list[str] | None,
    history: list[str] | None = None, rewriter: QueryRewriter | None = None,
) -> dict[str, Any]:
    """Retrieval explained (both legs' ranks, fused scores, pages kept and why), the answer
    check's verdict, plus the excerpts exactly as the chat would put them in front of the model.
    The question goes through the chat's own retrieval (`retrieve_in_conversation`), so a
    question the answer check refuses is shown refused here too; with `history` (the earlier
    questions of a visitor's conversation) and the chat's `rewriter`, a follow-up is read as the
    chat read it."""
    if not question.strip():
        raise BadTesterRequest("q is empty: type a question")
    retrieval = await retrieve_in_conversation(retriever, question, history or None, rewriter=rewriter,
                                               audiences=audiences, explain=True)
    data = retrieval.to_dict(explain=True)
    data["history"] = history or []
    check = answer_check_of(retrieval)
    data["answer_check"] = check.to_dict() if check is not None else None
    # A refused question reaches no model (the chat says the docs do not cover it).
    excerpts = model_excerpts(retrieval, settings, retriever.model) if retrieval.would_answer else []
    data["model_input"] = {
        "excerpts": [{"number": e.number, "title": e.title, "url": e.url, "heading": e.heading, "text": e.text}
                     for e in excerpts],
        "prompt": format_excerpts(excerpts) if excerpts else "",
    }
    return data
