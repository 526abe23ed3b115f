"""The offline answer reads on into the next part of the leading section (issue 45): a long section
is stored in parts of at most MAX_CHUNK_CHARS, and the part that matches the question's words often
sets out the problem while the next says what to do (httpx's proxy handshake entry). The real app
over HTTP, a real Postgres, a real git repository; keyword-only, so no model loads."""

from __future__ import annotations

import asyncio

import httpx

from tests.helpers import commit_all, write_files
from tests.test_answer_page_order import _execute, summary
from tests.test_conversations import chat
from tests.test_llms_txt import doors_project, sync_project  # noqa: F401 - the fixture

FILLER = ("The gateway keeps one connection per upstream host and reuses it for every request that goes "
          "there, so the first request to a host pays for the connection and the others do not. ")
PROXIES = (
    "---\ntitle: Proxies\naudience: public\n---\nHow requests travel through a gateway.\n\n"
    "## Handshake timed out through a gateway\n\n"
    + FILLER * 3
    + "\n\nWhen requests go through a gateway over TLS, the handshake operation timed out error means the "
    "gateway was reached with the wrong scheme for its handshake.\n\n"
    "Change the scheme of the gateway address to `http://` instead of `https://`: the gateway opens the "
    "tunnel itself, and nothing else needs changing in the settings or on the host.\n\n"
    "This is a common gotcha of gateways that terminate the secure connection on their own side.\n"
)
QUESTION = "the handshake operation timed out when requests go through a gateway over TLS"


def test_the_answer_reads_on_into_the_next_part_of_its_section(doors_project, clean_db, db_env,  # noqa: F811
                                                                 owner_database_url, start_server) -> None:
    write_files(doors_project, {"docs/guides/proxies.mdx": PROXIES})
    commit_all(doors_project, "a section long enough to be stored in parts")
    asyncio.run(sync_project())
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=60) as client:
        text = summary(chat(client, QUESTION))
    assert "the wrong scheme for its handshake" in text, text
    assert "Change the scheme of the gateway address to `http://`" in text, text
    # What the answer may read is what the asker may see: the part made internal, it is not read.
    asyncio.run(_execute(owner_database_url, "update public.docs_section set audiences = '{internal}'"
                                             " where page = 'guides/proxies.mdx' and id like '%~2'"))
    with httpx.Client(base_url=server.url, timeout=60) as client:
        text = summary(chat(client, QUESTION))
    assert "the wrong scheme for its handshake" in text and "Change the scheme" not in text, text
