"""Deadlines on an answerer's stream: a model endpoint that hangs or crawls cannot hold a request.

The first text must come within `first_token_seconds`, the whole answer within `total_seconds`;
past either, `AnswerTimeout` is raised and the stream is closed (its HTTP request with it).
Each delta is also made storable: a model can emit NUL or lone surrogates, which Postgres refuses.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from app.text import storable_text


def storable(text: str) -> str:
    """`text` without NUL (a model's stray NUL is no word break), lone surrogates replaced by U+FFFD."""
    return storable_text(text, nul="")


class AnswerTimeout(TimeoutError):
    """The model did not answer in time; the message says which deadline passed."""


async def within_deadlines(
    stream: AsyncIterator[Any], *, first_token_seconds: float, total_seconds: float
) -> AsyncIterator[Any]:
    """The deltas of `stream`, as long as they arrive in time. Other events (a tool's found
    sources, issue 13) pass through unchanged and count as the model's first output."""
    loop = asyncio.get_running_loop()
    end = loop.time() + total_seconds
    first = True
    try:
        while True:
            remaining = end - loop.time()
            wait = min(remaining, first_token_seconds) if first else remaining
            if wait <= 0:
                raise AnswerTimeout(f"the answer took longer than {total_seconds:g} s")
            try:
                delta = await asyncio.wait_for(anext(stream), wait)
            except StopAsyncIteration:
                return
            except TimeoutError:
                if first and first_token_seconds < remaining:
                    raise AnswerTimeout(f"the model sent nothing within {first_token_seconds:g} s") from None
                raise AnswerTimeout(f"the answer took longer than {total_seconds:g} s") from None
            if not isinstance(delta, str):
                first = False
                yield delta
                continue
            if delta:
                first = False
            yield storable(delta)
    finally:
        aclose = getattr(stream, "aclose", None)
        if aclose is not None:
            await aclose()
