"""Deadlines on an answerer's stream: a model endpoint that hangs or crawls cannot hold a request.

The first text must come within `first_token_seconds`, the whole answer within `total_seconds`;
past either, `AnswerTimeout` is raised and the stream is closed (its HTTP request with it).
Each delta is also made storable: a model can emit NUL or lone surrogates, which Postgres refuses.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from typing import TypeVar

_SURROGATE = re.compile("[\ud800-\udfff]")


def storable(text: str) -> str:
    """`text` without NUL, lone surrogates replaced by U+FFFD."""
    return _SURROGATE.sub("\ufffd", text.replace("\x00", ""))


class AnswerTimeout(TimeoutError):
    """The model did not answer in time; the message says which deadline passed."""


Event = TypeVar("Event")


async def within_deadlines(
    stream: AsyncIterator[Event], *, first_token_seconds: float, total_seconds: float
) -> AsyncIterator[Event]:
    """The deltas of `stream`, as long as they arrive in time. Events that are not text (the
    sources a tool found) pass through as they are."""
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
            except asyncio.TimeoutError:
                if first and first_token_seconds < remaining:
                    raise AnswerTimeout(f"the model sent nothing within {first_token_seconds:g} s") from None
                raise AnswerTimeout(f"the answer took longer than {total_seconds:g} s") from None
            if delta:
                first = False
            yield storable(delta) if isinstance(delta, str) else delta  # type: ignore[misc]
    finally:
        aclose = getattr(stream, "aclose", None)
        if aclose is not None:
            await aclose()
