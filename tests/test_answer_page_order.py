"""The offline answer quotes the passages of one page in the page's order (issue 45): the positions
sync stored (docs_section.section_order), whatever order retrieval (or the section ids) gave them in.
The real app over HTTP, a real Postgres, a real git repository; keyword-only, so no model loads."""

from __future__ import annotations

import asyncio

import asyncpg
import httpx

from app.chat.answerers import ExtractiveAnswerer
from app.judge.excerpt import Excerpt
from tests.helpers import commit_all, write_files
from tests.test_conversations import chat
from tests.test_llms_txt import doors_project, sync_project  # noqa: F401 - the fixture

# The file has Zebra first; ids sort alpha first, and Alpha holds more of the question's words, so
# retrieval ranks it first too: only the stored positions say Zebra comes first.
STRIPES = (
    "---\ntitle: Stripes\naudience: public\n---\nStripes are drawn on the widget.\n\n"
    "## Zebra setup\nSet the stripe width and the stripe colour in the stripes config: `stripe_width` defaults to 4.\n\n"
    "## Alpha notes\nThe stripe width and the stripe colour both live in the stripes config; set the stripe "
    "colour with `stripe_colour`.\n"
)
QUESTION = "How do I set the stripe width and the stripe colour in the stripes config?"


def summary(parts: list[dict]) -> str:
    return "".join(p["delta"] for p in parts if p["type"] == "text-delta")


async def _execute(url: str, sql: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def test_a_pages_passages_are_quoted_in_the_pages_order(doors_project, clean_db, db_env, owner_database_url,  # noqa: F811
                                                        start_server) -> None:
    write_files(doors_project, {"docs/guides/stripes.mdx": STRIPES})
    commit_all(doors_project, "a page whose sections are in neither id nor retrieval order")
    asyncio.run(sync_project())
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=60) as client:
        text = summary(chat(client, QUESTION))
    zebra, alpha = text.find("**Stripes › Zebra setup**"), text.find("**Stripes › Alpha notes**")
    assert 0 <= zebra < alpha, text
    # The stored positions are what orders them: swapped in the database, the quotes swap.
    asyncio.run(_execute(owner_database_url, "update public.docs_section set section_order = 3 - section_order"
                                             " where page = 'guides/stripes.mdx' and section_order > 0"))
    with httpx.Client(base_url=server.url, timeout=60) as client:  # a new conversation
        text = summary(chat(client, QUESTION))
    zebra, alpha = text.find("**Stripes › Zebra setup**"), text.find("**Stripes › Alpha notes**")
    assert 0 <= alpha < zebra, text


def test_the_chooser_orders_a_pages_passages_by_their_place_in_it() -> None:
    alpha = Excerpt(1, "Stripes", "https://x/stripes#alpha-notes", "Alpha notes",
                    "The stripe width and the stripe colour both live in the stripes config; set the stripe colour with "
                    "`stripe_colour`.", "Stripes › Alpha notes",
                    section="docs:stripes.mdx#alpha-notes")
    zebra = Excerpt(1, "Stripes", "https://x/stripes#zebra-setup", "Zebra setup",
                    "Set the stripe width and the stripe colour in the stripes config: `stripe_width` defaults to 4.",
                    "Stripes › Zebra setup",
                    section="docs:stripes.mdx#zebra-setup")
    unknown = ExtractiveAnswerer().answer(QUESTION, [alpha, zebra])
    assert unknown.index("Alpha notes") < unknown.index("Zebra setup")  # no place known: retrieval's order
    placed = [Excerpt(**{**e.__dict__, "order_in_page": n}) for e, n in ((alpha, 2), (zebra, 1))]
    answer = ExtractiveAnswerer().answer(QUESTION, placed)
    assert answer.index("Zebra setup") < answer.index("Alpha notes"), answer
