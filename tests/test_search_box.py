"""The search box (GET /docs/search, public.docs_search_box) against a real Postgres and the real app.

Prefix and typo reading of what is typed, pages with their sections, snippets as text with match
offsets, the audience rules (an internal page's secret word never comes out, nor a page that
declares no audience), the cheap answer to one-letter queries, the rate limit and /schema.
"""

from __future__ import annotations

from typing import Literal

import httpx
import pytest

from app.search.search_box import MARK_END, MARK_START
from tests.helpers import seed_docs

SECRET = "quokkazebra"

PAGES = {
    "widget.mdx": "---\ntitle: Embedding the widget\naudience: public\n---\nIntro to the widget.\n\n"
    "## Embed the script\nEmbed the widget with one script tag on every page of your docs site.\n\n"
    "## Configuration options\nThe widget reads its configuration from data attributes.\n",
    "deploy.mdx": "---\ntitle: Deployment\naudience: public\n---\nHow deployment works.\n\n"
    "## Deploying to Vercel\nDeploying with Vercel takes one command and a project token.\n",
    "navigation.mdx": "---\ntitle: Navigation\naudience: public\n---\nThe navigation sidebar lists every page.\n",
    "team.mdx": f"---\ntitle: Team runbook {SECRET}\naudience: internal\n---\n"
    f"## Rotate the widget token\nThe {SECRET} token of the widget is rotated by the on-call engineer.\n",
    # No audience declared: internal by default (DOCS_DEFAULT_AUDIENCE), never public.
    "undeclared.mdx": f"---\ntitle: Undeclared notes\n---\nThe {SECRET}undeclared embed widget notes for staff.\n",
}

HOSTILE_TITLE = "<img src=x onerror=window.__xss=1> \"quotes\" & javascript:alert(1)"
HOSTILE = {
    # .md: raw HTML is CommonMark's (MDX 3 refuses an unquoted attribute, so a .mdx page of it is not indexed)
    "hostile.md": f"---\ntitle: '{HOSTILE_TITLE}'\naudience: public\n---\n"
    f"## Hostile <script>alert(1)</script> heading\nThe hostilely <b>bold</b> {MARK_START}forged{MARK_END} "
    "text <img src=x onerror=alert(1)> about the hostility of markup.\n",
}


@pytest.fixture
def seeded(offline, database_url):
    seed_docs(database_url, {**PAGES, **HOSTILE})
    return database_url


async def _search(pool, query: str, audiences, **kwargs):
    from app.search.search_box import SearchRequest, search_box

    request = SearchRequest(query, kwargs.pop("limit", 8), kwargs.pop("mode", "keyword"))
    return (await search_box(pool, request, audiences, "https://docs.example.com", **kwargs)).to_dict()


def _titles(result) -> list[str]:
    return [page["title"] for page in result["results"]]


def _everything(result) -> str:
    """What came out of the index (the query is echoed, so it is left out)."""
    return repr(result["results"]).lower()


async def test_last_word_matches_as_a_prefix_of_stored_stems(seeded, pool) -> None:
    # `embe` begins "embed"; `deploym` runs past the stored stem "deploy"; `configura` past "configur".
    assert _titles(await _search(pool, "embe", ["public"]))[0] == "Embedding the widget"
    assert _titles(await _search(pool, "deploym", ["public"]))[0] == "Deployment"
    found = await _search(pool, "widget configura", ["public"])
    assert found["results"][0]["sections"][0]["heading"] == "Configuration options"
    assert _titles(await _search(pool, "navigat", ["public"]))[0] == "Navigation"
    # Followed by a space the word is whole: "navigat " is no word the docs hold, nor one edit
    # from one (the stored stem is "navig").
    assert _titles(await _search(pool, "navigat ", ["public"])) == []


async def test_typos_are_tolerated_as_in_the_chat(seeded, pool) -> None:
    # Each a word no page holds, one edit from one they do (after stemming): "comand" → command.
    assert _titles(await _search(pool, "comand ", ["public"])) == ["Deployment"]
    assert _titles(await _search(pool, "sidebra navigation", ["public"]))[0] == "Navigation"
    assert "Embedding the widget" in _titles(await _search(pool, "attribtes", ["public"]))


async def test_an_everyday_word_the_docs_do_not_use_is_no_typo_in_the_box(seeded, pool) -> None:
    """"taken" is one edit from "token", which the Deployment page uses: a whole word of the language
    is no typo, so the box drops it, as the chat's keyword leg does (question_terms.everyday_words),
    instead of showing the token's page. A real typo ("comand") is still corrected."""
    assert _titles(await _search(pool, "taken ", ["public"])) == []
    assert _titles(await _search(pool, "comand taken ", ["public"])) == ["Deployment"]
    # The SQL told no everyday word (null) corrects it as before; told, it drops it.
    assert [r["title"] for r in await pool.fetch("select * from public.docs_search_box('taken ', '{public}')")] == [
        "Deployment"]
    assert await pool.fetch("select * from public.docs_search_box('taken ', '{public}', everyday_words => '{taken}')") == []


async def test_pages_carry_sections_with_anchor_urls_paths_and_highlights(seeded, pool) -> None:
    result = await _search(pool, "embed script", ["public"])
    page = result["results"][0]
    assert page["title"] == "Embedding the widget"
    assert page["url"] == "https://docs.example.com/docs/widget"
    section = page["sections"][0]
    assert section["heading"] == "Embed the script"
    assert section["url"] == "https://docs.example.com/docs/widget#embed-the-script"
    assert section["path"] == ["Embedding the widget", "Embed the script"]
    marked = {section["snippet"][start:end].lower() for start, end in section["highlights"]}
    assert {"embed", "script"} <= marked, section
    assert len(page["sections"]) <= 3
    assert page["score"] >= result["results"][-1]["score"]


async def test_internal_and_undeclared_pages_never_come_out(seeded, pool) -> None:
    for query in (SECRET, SECRET[:5], "quokkazebr", "quokazebra ", "rotate token", "team runbook",
                  "undeclared notes", "staff", "widget token on-call"):
        result = await _search(pool, query, ["public"])
        assert SECRET not in _everything(result), query
        assert "runbook" not in _everything(result) and "undeclared" not in _everything(result), query
    # The same words find the pages for the audiences that may see them: the test can fail.
    assert _titles(await _search(pool, SECRET[:6], ["internal"]))


async def test_null_or_empty_audiences_find_nothing_in_sql(seeded, pool) -> None:
    for audiences in (None, [], ["nobody"]):
        rows = await pool.fetch("select * from public.docs_search_box('widget', $1)", audiences)
        assert rows == [], audiences
    assert await pool.fetch("select * from public.docs_search_box('widget', '{public}')")


async def test_hostile_titles_and_text_come_back_as_plain_text(seeded, pool) -> None:
    result = await _search(pool, "hostil", ["public"])
    page = result["results"][0]
    assert page["title"] == HOSTILE_TITLE  # verbatim text: the client must not read it as HTML
    section = page["sections"][0]
    assert MARK_START not in section["snippet"] and MARK_END not in section["snippet"]
    marked = [section["snippet"][start:end] for start, end in section["highlights"]]
    assert marked and all(word.lower().startswith("hostil") for word in marked), marked
    assert "forged" not in marked


# --- over HTTP, against the real app -------------------------------------------------------------

def test_http_search_shape_errors_and_cheap_short_queries(seeded, start_server, owner_database_url,
                                                         monkeypatch) -> None:
    import asyncio

    import asyncpg

    monkeypatch.setenv("SEARCH_RATE_LIMIT", "20")  # blocks of one point: each round trip counted
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=10) as client:
        body = client.get("/docs/search", params={"q": "embe", "limit": "2"}).json()
        assert body["mode"] == "keyword" and body["degraded"] is None
        assert 1 <= len(body["results"]) <= 2 and body["results"][0]["title"] == "Embedding the widget"
        assert len(body["results"][0]["sections"]) >= 2  # "Embed the script" and the intro
        # sections=1, what the widget asks (it shows one): the same pages, each with its best section.
        one = client.get("/docs/search", params={"q": "embe", "limit": "2", "sections": "1"}).json()
        assert [p["url"] for p in one["results"]] == [p["url"] for p in body["results"]]
        assert [p["sections"] for p in one["results"]] == [p["sections"][:1] for p in body["results"]]
        for params, fragment in (({"q": "x", "limit": "0"}, "limit"), ({"q": "x", "limit": "many"}, "limit"),
                                 ({"q": "x", "mode": "vector"}, "mode"), ({"q": "y" * 201}, "q is longer"),
                                 ({"q": "x", "mode": ""}, "mode"), ({"q": "x", "limit": ""}, "limit"),
                                 ({"q": "x", "sections": "4"}, "sections"), ({"q": "x", "sections": "0"}, "sections"),
                                 ({"q": "x", "sections": "one"}, "sections")):
            response = client.get("/docs/search", params=params)
            assert response.status_code == 400 and fragment in response.json()["detail"], params
        for query in ("", "e", " ?", "é!"):
            response = client.get("/docs/search", params={"q": query})
            assert response.status_code == 200 and response.json()["results"] == [], query
        secret = client.get("/docs/search", params={"q": SECRET[:7], "mode": "hybrid"}).json()
        assert SECRET not in _everything(secret)

    async def search_points() -> int:
        conn = await asyncpg.connect(owner_database_url)
        try:
            return await conn.fetchval("select sum(points) from docs_chat_limits where key like '%search%'")
        finally:
            await conn.close()

    # The one-letter and empty queries made no round trip: not even the rate limit's, which
    # counted the searches that were made ("embe" twice, the bad parameters' are not, "quokkaz").
    assert asyncio.run(search_points()) == 3


def test_search_has_its_own_rate_limit(seeded, start_server, monkeypatch) -> None:
    monkeypatch.setenv("SEARCH_RATE_LIMIT", "3")
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=10) as client:
        codes = [client.get("/docs/search", params={"q": "widget"}).status_code for _ in range(4)]
        assert codes == [200, 200, 200, 429]
        refused = client.get("/docs/search", params={"q": "widget"})
        assert int(refused.headers["retry-after"]) >= 1 and refused.json()["error"] == "rate_limited"
        # The chat's quota is untouched.
        assert client.post("/docs/chat", json={"message": "how do I embed the widget"}).status_code == 200


def test_a_search_that_outlasts_the_timeout_is_cancelled_and_answered_503(
        seeded, start_server, monkeypatch, owner_database_url) -> None:
    """Tables locked (as `docschat index clear` locks them), one place in the gate, three searches at
    once: each gets 503 search_timed_out with Retry-After after LEG_TIMEOUT_SECONDS, the queued ones
    too; no statement is left waiting in Postgres while the lock is still held; and once it goes,
    the place is free again and the next search answers."""
    import asyncio

    import asyncpg

    monkeypatch.setenv("LEG_TIMEOUT_SECONDS", "0.5")
    monkeypatch.setenv("SEARCH_CONCURRENCY", "1")
    monkeypatch.setenv("SEARCH_CACHE_SIZE", "0")
    server = start_server()
    waiting = ("select count(*) from pg_stat_activity"
               " where wait_event_type = 'Lock' and query like '%docs_search_box%'")

    async def scenario() -> None:
        owner, watcher = await asyncpg.connect(owner_database_url), await asyncpg.connect(owner_database_url)
        try:
            async with httpx.AsyncClient(base_url=server.url, timeout=10) as client:
                async with owner.transaction():
                    await owner.execute("lock table public.docs_section, public.docs_section_fts"
                                        " in access exclusive mode")
                    answers = await asyncio.gather(*(client.get("/docs/search", params={"q": q})
                                                     for q in ("embe", "deplo", "navig")))
                    for answer in answers:
                        assert answer.status_code == 503, answer.text
                        assert answer.json()["error"] == "search_timed_out" and answer.headers["retry-after"] == "1"
                    async with asyncio.timeout(10):  # the cancel requests reach Postgres
                        while await watcher.fetchval(waiting) > 0:
                            await asyncio.sleep(0.02)
                after = await client.get("/docs/search", params={"q": "embe"})
                assert after.status_code == 200 and after.json()["results"][0]["title"] == "Embedding the widget"
        finally:
            await owner.close()
            await watcher.close()

    asyncio.run(scenario())


async def test_blocks_never_admit_more_than_the_limit_across_processes(seeded, pool) -> None:
    import asyncio

    from app.rate_limit import BlockRateLimiter

    # Two processes' limiters over one database (one key), hits interleaved and concurrent.
    first, second = (BlockRateLimiter(pool, 60, "search", block=7) for _ in range(2))
    decisions = await asyncio.gather(*((first if i % 2 else second).hit("client") for i in range(150)))
    admitted = sum(d.allowed for d in decisions)
    # Never more than the limit; at most (processes - 1) x (block - 1) refused early.
    assert 60 - 6 <= admitted <= 60, admitted
    refused = next(d for d in decisions if not d.allowed)
    assert refused.retry_after_seconds >= 1 and refused.limit == 60
    async with pool.acquire() as conn:
        points = await conn.fetchval("select points from docs_chat_limits where key = $1", first.key("client"))
    # A round trip per block, not per hit: 9 blocks hold the 60 points, then one refusal per process
    # (refused locally after that).
    assert points % 7 == 0 and points // 7 <= 9 + 2, points
    # Another client has its own window.
    assert (await first.hit("someone else")).allowed


async def test_stateless_release_skips_the_reset_and_others_still_reset(database_url) -> None:
    from app.db.pool import acquire_stateless, create_pool

    pool = await create_pool(database_url, min_size=1, max_size=1)  # one connection: the same each time
    try:
        async with pool.acquire() as conn:
            await conn.execute("set application_name = 'left behind'")
        async with pool.acquire() as conn:  # asyncpg's reset ran on release (RESET ALL)
            assert await conn.fetchval("show application_name") != "left behind"
        async with acquire_stateless(pool) as conn:
            await conn.execute("set application_name = 'left behind'")
        async with pool.acquire() as conn:  # no reset query on that release (the caller's promise)
            assert await conn.fetchval("show application_name") == "left behind"
        # ...and the next release, not stateless, resets again.
        async with pool.acquire() as conn:
            assert await conn.fetchval("show application_name") != "left behind"
        async with acquire_stateless(pool) as conn:  # an open transaction is still rolled back
            transaction = conn.transaction()
            await transaction.start()
            await conn.execute("create temporary table kept_open (x int)")
        async with pool.acquire() as conn:
            assert not conn.is_in_transaction()
            assert await conn.fetchval("select to_regclass('pg_temp.kept_open')") is None
    finally:
        await pool.close()


async def test_release_later_hands_the_release_to_the_loop_and_still_skips_the_reset(database_url) -> None:
    """acquire_stateless(release_later=True), the retrieval's keyword leg: the block's end does not
    wait for asyncpg's release (it runs at the caller's next wait), that release skips the reset
    query as the awaited one does, and a block that raises releases its connection before the
    exception propagates."""
    from app.db.pool import acquire_stateless, create_pool

    pool = await create_pool(database_url, min_size=1, max_size=1)  # one connection: the same each time
    try:
        async with acquire_stateless(pool, release_later=True) as conn:
            await conn.execute("set application_name = 'left behind'")
        assert pool.get_idle_size() == 0  # not released yet: that is the caller's next wait
        async with pool.acquire() as conn:  # waits for that release, which skipped the reset
            assert await conn.fetchval("show application_name") == "left behind"
        with pytest.raises(ValueError, match="inside"):
            async with acquire_stateless(pool, release_later=True):
                raise ValueError("inside")
        assert pool.get_idle_size() == 1  # released before the exception reached here
    finally:
        pool.terminate()  # not close(): that would wait for a connection never released


async def test_cache_answers_a_repeat_only_while_the_index_state_stands(seeded, pool, owner_database_url) -> None:
    import asyncpg

    from app.search.search_box import SearchCache

    cache = SearchCache(8)
    first = await _search(pool, "embe", ["public"], cache=cache)
    assert first["results"][0]["title"] == "Embedding the widget" and (cache.hits, cache.misses) == (0, 1)
    assert await _search(pool, "embe", ["public"], cache=cache) == first and cache.hits == 1
    # What the cache holds is only served for that very key: audiences, limit, the prefix.
    internal = await _search(pool, SECRET[:7], ["public", "internal"], cache=cache)
    assert SECRET in _everything(internal)
    assert SECRET not in _everything(await _search(pool, SECRET[:7], ["public"], cache=cache))
    assert len((await _search(pool, "embe", ["public"], cache=cache, limit=1))["results"]) == 1
    assert (await _search(pool, "embe ", ["public"], cache=cache))["results"] != first["results"]
    assert cache.hits == 1
    owner = await asyncpg.connect(owner_database_url)
    try:
        # Any write to docs_section moves the state, one typed in psql included: a page made
        # internal by hand is gone from the next anonymous search, not served from the cache.
        await owner.execute("update docs_section set audiences = '{internal}' where page = 'widget.mdx'")
        hidden = await _search(pool, "embe", ["public"], cache=cache)
        assert "Embedding the widget" not in _titles(hidden) and cache.hits == 1
        await owner.execute("update docs_section set audiences = '{public}', title = 'Retitled'"
                            " where page = 'widget.mdx'")
        again = await _search(pool, "embe", ["public"], cache=cache)
        assert again["results"][0]["title"] == "Retitled" and cache.hits == 1
        assert await _search(pool, "embe", ["public"], cache=cache) == again and cache.hits == 2
        # A refresh of the statistics (scores may move) is a new state too.
        await owner.execute("update docs_search_stats set refreshed_at = now() + interval '1 second'")
        await _search(pool, "embe", ["public"], cache=cache)
        assert cache.hits == 2
    finally:
        await owner.close()


async def test_the_gate_lets_that_many_statements_reach_postgres_and_the_rest_wait(
        seeded, pool, owner_database_url) -> None:
    """SEARCH_CONCURRENCY's gate: six searches at once with places for two, the tables locked. Once
    all six have reached the gate, exactly two statements wait on the lock in Postgres (the four
    others wait in the gate, holding no connection); released, all six answer, as without a gate."""
    import asyncio

    import asyncpg

    class CountingGate(asyncio.Semaphore):
        reached = 0

        async def acquire(self) -> Literal[True]:
            self.reached += 1
            return await super().acquire()

    queries = ["embe", "deplo", "navig", "widget", "vercel", "config"]
    expected = [await _search(pool, q, ["public"]) for q in queries]
    gate = CountingGate(2)
    waiting = ("select count(*) from pg_stat_activity"
               " where wait_event_type = 'Lock' and query like '%docs_search_box%'")
    # pg_stat_activity is read on a connection of its own: in the locker's transaction it is a snapshot.
    owner, watcher = await asyncpg.connect(owner_database_url), await asyncpg.connect(owner_database_url)
    try:
        async with owner.transaction():
            await owner.execute("lock table public.docs_section, public.docs_section_fts in access exclusive mode")
            tasks = [asyncio.create_task(_search(pool, q, ["public"], gate=gate)) for q in queries]
            async with asyncio.timeout(10):
                while gate.reached < 6 or await watcher.fetchval(waiting) < 2:
                    await asyncio.sleep(0.02)
            assert await watcher.fetchval(waiting) == 2
            assert not any(task.done() for task in tasks)
        async with asyncio.timeout(10):
            found = await asyncio.gather(*tasks)
    finally:
        await owner.close()
        await watcher.close()
    assert found == expected


def test_search_gate_defaults_to_the_usable_cores_and_zero_is_none(tmp_path) -> None:
    import os

    from app.web.search_routes import search_gate, usable_cores

    gate = search_gate(None)
    assert gate is not None and gate._value == usable_cores()  # places left: none taken yet
    assert search_gate(0) is None and search_gate(3)._value == 3
    # A container's CPU quota (cgroup v2 cpu.max: quota and period in µs) lowers it, rounded up.
    affinity = len(os.sched_getaffinity(0))
    cpu_max = tmp_path / "cpu.max"
    for text, expected in (("50000 100000\n", 1), ("100000 100000\n", 1), ("150000 100000\n", min(2, affinity)),
                           ("max 100000\n", affinity), ("garbage\n", affinity), ("1 0\n", affinity)):
        cpu_max.write_text(text)
        assert usable_cores(cpu_max) == expected, text
    assert usable_cores(tmp_path / "missing") == affinity


def test_http_search_after_a_sync_answers_from_the_new_index(seeded, start_server, monkeypatch) -> None:
    from tests.helpers import seed_docs

    server = start_server()
    with httpx.Client(base_url=server.url, timeout=10) as client:
        def titles() -> list[str]:
            return _titles(client.get("/docs/search", params={"q": "navig", "sections": "1"}).json())

        assert titles() == ["Navigation"] and titles() == ["Navigation"]  # the second from the cache
        changed = {**PAGES, **HOSTILE, "navigation.mdx": PAGES["navigation.mdx"].replace(
            "title: Navigation", "title: Site navigation")}
        seed_docs(seeded, changed)
        assert titles() == ["Site navigation"]


@pytest.mark.slow
def test_two_workers_refuse_a_client_over_the_search_limit(seeded, tmp_path) -> None:
    import concurrent.futures
    import os
    import sys
    from pathlib import Path

    import psutil

    from tests.served import ServeProcess

    env = {k: v for k, v in os.environ.items() if not k.startswith(("RATE_LIMIT", "METRICS", "SEARCH_RATE"))}
    env.update(DATABASE_URL=seeded, DOCSCHAT_HOME=str(tmp_path / "home"), LOG_LEVEL="warning",
               PYTHONPATH=str(Path(__file__).resolve().parent.parent), EMBEDDING_PROVIDER="none",
               SEARCH_RATE_LIMIT="90")  # blocks of 3
    with ServeProcess([sys.executable, "-m", "app"], env, cwd=tmp_path, extra_args=["--workers", "2"]) as server:
        workers = [p for p in psutil.Process(server.process.pid).children() if "spawn_main" in " ".join(p.cmdline())]
        assert len(workers) == 2

        def one(i: int) -> httpx.Response:
            # A new connection per search: the kernel spreads them over both workers.
            with httpx.Client(base_url=server.url, timeout=60) as client:
                return client.get("/docs/search", params={"q": f"widget {i}"})

        with concurrent.futures.ThreadPoolExecutor(8) as threads:
            responses = list(threads.map(one, range(130)))
    statuses = [r.status_code for r in responses]
    assert set(statuses) == {200, 429}, server.log()
    assert 90 - 2 <= statuses.count(200) <= 90, statuses  # 2 workers: at most (2-1) x (3-1) early
    refused = next(r for r in responses if r.status_code == 429)
    assert int(refused.headers["retry-after"]) >= 1 and refused.json()["error"] == "rate_limited"


def test_search_is_documented_in_schema(seeded, start_server) -> None:
    server = start_server()
    schema = httpx.get(f"{server.url}/schema/openapi.json", timeout=10).json()
    operation = schema["paths"]["/docs/search"]["get"]
    assert {p["name"] for p in operation["parameters"]} == {"q", "limit", "mode", "sections"}
    assert {"200", "400", "429", "503"} <= set(operation["responses"])
    assert "Retry-After" in operation["responses"]["429"]["headers"]


def test_hybrid_search_with_vectors_keeps_internal_pages_out(fake_gemini, clean_db, database_url, start_server) -> None:
    seed_docs(database_url, PAGES)
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=20) as client:
        for query in (f"{SECRET} token rotated by the on-call engineer", "Rotate the widget token", "staff notes"):
            body = client.get("/docs/search", params={"q": query, "mode": "hybrid"}).json()
            assert body["mode"] == "hybrid" and body["degraded"] is None, body
            assert SECRET not in _everything(body) and "runbook" not in _everything(body), query
        # The vector leg joins: a query of no known word still finds pages on submit.
        body = client.get("/docs/search", params={"q": "Embed the script zzzqqq", "mode": "hybrid"}).json()
        assert body["results"] and body["results"][0]["title"] == "Embedding the widget"


@pytest.fixture
def odd_names(offline, database_url):
    seed_docs(database_url, {"odd.mdx": "---\ntitle: Odd names\naudience: public\n---\n"
                             "Paths like c:\\winpath\\x and hosts like exampleodd.com and it's o'reilly \\\\ text.\n"})


async def test_lexemes_with_punctuation_or_backslashes_are_never_a_broken_query(odd_names, pool) -> None:
    """The index holds lexemes such as `c:\\path` or `exampleodd.com`; a prefix that begins one must
    still be a valid query (a lexeme quoted with a backslash is E'...', which tsquery refuses)."""
    rows = await pool.fetch("select lexeme from docs_lexeme_stats where lexeme !~ '^[[:alnum:]]+$'")
    assert rows, "the page should give the index some lexemes with punctuation"
    for row in rows:
        for length in range(2, len(row["lexeme"]) + 1):
            await _search(pool, row["lexeme"][:length], ["public"])  # no error
    assert _titles(await _search(pool, "exampleod", ["public"])) == ["Odd names"]


def _filler(numbers: range) -> str:  # ~3,400 characters for 60 numbers
    return " ".join(f"Filler sentence number {n} says nothing in particular." for n in numbers)


@pytest.fixture
def long_section(offline, database_url):
    seed_docs(database_url, {
        "long.mdx": "---\ntitle: Long page\naudience: public\n---\n"
        f"## Everything\n{_filler(range(60))} The zanzibarite setting turns the feature on. {_filler(range(100, 160))}\n",
        "short.mdx": "---\ntitle: Short page\naudience: public\n---\nA note on the quokkaroo, a typo-prone word.\n",
    })


async def test_snippet_is_a_short_window_around_a_match_deep_in_a_section(long_section, pool) -> None:
    """ts_headline reads only snippet_chars (320) around the first match, so a match 3,400
    characters into a section is still shown and marked, in a snippet of about two dozen words."""
    content = await pool.fetchval("select content from docs_section where content like '%zanzibarite setting%'")
    assert content.index("zanzibarite") > 1000, "the match should lie past the first snippet_chars of its section"
    result = await _search(pool, "zanzibarite setting", ["public"])
    section = result["results"][0]["sections"][0]
    assert result["results"][0]["title"] == "Long page"
    marked = [section["snippet"][a:b].lower() for a, b in section["highlights"]]
    assert "zanzibarite" in marked and "setting" in marked, section
    assert len(section["snippet"].split()) <= 30 and "number 3 " not in section["snippet"], section["snippet"]


async def test_one_plan_serves_prefixes_typos_and_whole_words_in_one_session(long_section, pool) -> None:
    """docs_search_box is planned once per session (plan_cache_mode = force_generic_plan): calls
    that take each of its paths in turn, on one connection, each give their own right answer."""
    config = await pool.fetchval(
        "select proconfig from pg_catalog.pg_proc where oid = 'public.docs_search_box'::regproc")
    assert "plan_cache_mode=force_generic_plan" in config
    async with pool.acquire() as conn:
        for _ in range(3):  # past the five calls after which a plan cache may switch to a generic plan
            for query, prefix, title in [("zanz", True, "Long page"), ("zanzibarite sett", True, "Long page"),
                                         ("quokaroo", False, "Short page"),  # a typo, as a whole word
                                         ("quokk", True, "Short page"), ("zanzibarite ", False, "Long page"),
                                         ("nothingsuch", True, None)]:
                rows = await conn.fetch("select * from public.docs_search_box($1, '{public}', 8, 3, $2)", query, prefix)
                assert (rows[0]["title"] if rows else None) == title, (query, [r["title"] for r in rows])


@pytest.fixture
def prefix_words(offline, database_url):
    """One page holds the rare word with a `con…` word; three others hold `con…` words only, which
    makes the typed `con` a group of several lexemes (connect, content, console, …)."""
    seed_docs(database_url, {
        "rare.mdx": "---\ntitle: Rare page\naudience: public\n---\nThe zephyrite option configures the console.\n",
        "connect.mdx": "---\ntitle: Connecting\naudience: public\n---\nConnect the content console to the connector.\n",
        "content.mdx": "---\ntitle: Content\naudience: public\n---\nContent and more content for the console.\n",
        "contact.mdx": "---\ntitle: Contact\naudience: public\n---\nContact us to connect your content.\n",
    })


async def test_every_word_holds_with_a_typed_prefix_of_several_lexemes(prefix_words, pool) -> None:
    """A box narrows as words are added: `zephyrite con` finds the sections holding zephyrite and
    one of the words `con` begins, never a section with only a `con…` word (the prefix group is
    an OR, which & must not split: `zephyrit & configur | connect` would take any `connect`)."""
    prefixes = await pool.fetchval(
        "select count(*) from docs_lexeme_stats where lexeme like 'con%' and audiences && '{public}'")
    assert prefixes >= 3, "the typed prefix should stand for several lexemes"
    for query in ["zephyrite con", "zephyrite co", "zephyrite cons"]:
        assert _titles(await _search(pool, query, ["public"])) == ["Rare page"], query


@pytest.fixture
def common_word(offline, database_url):
    """`glimmerstone` in the body of 12 sections (pages a0-a3) and in the title of three pages: one
    before them (0-basics) and two after (z-public, and z-staff, which is internal), so the index
    returns most body sections before the guide."""
    pages = {f"a{p}.mdx": f"---\ntitle: Body page {p}\naudience: public\n---\n" + "".join(
        f"## Part {s}\nThe glimmerstone note {p}{s} lies in the body text. {_filler(range(p * 10 + s, p * 10 + s + 3))}\n\n"
        for s in range(3)) for p in range(4)}
    pages["0-basics.mdx"] = "---\ntitle: Glimmerstone basics\naudience: public\n---\nWhat the basics say.\n"
    pages["z-public.mdx"] = "---\ntitle: Glimmerstone guide\naudience: public\n---\nHow the guide reads.\n"
    pages["z-staff.mdx"] = f"---\ntitle: Glimmerstone {SECRET} runbook\naudience: internal\n---\nStaff only.\n"
    seed_docs(database_url, pages)
    return database_url


async def _box(pool, query: str, candidate_rows: int, sections: int = 1) -> list:
    return await pool.fetch("select * from public.docs_search_box($1, '{public}', 8, $2, true, null, null,"
                            " candidate_rows => $3)", query, sections, candidate_rows)


async def test_a_common_word_ranks_the_sections_holding_it_in_a_title_first(common_word, pool) -> None:
    """With more sections holding the one word typed than are ranked (candidate_rows), those
    holding it in a title or heading are read first: a page whose title holds it comes first
    though the index gives the body sections before the guide; the internal title never comes out."""
    in_body = await pool.fetchval(
        "select count(*) from docs_section where content ilike '%glimmerstone note%' and audiences && '{public}'")
    assert in_body == 12
    in_title = {"Glimmerstone basics", "Glimmerstone guide"}
    for query in ("glimmerstone", "glimmer", "glimmerstone "):
        for candidate_rows in (1, 3, 5):
            rows = await _box(pool, query, candidate_rows)
            titles = [r["title"] for r in rows]
            # Which title section is read first is the table's physical order (the sync's insert
            # order, not fixed): with one candidate either may come; with more, both lead.
            first = titles[: min(candidate_rows, 2)]
            assert len(set(first)) == len(first) and set(first) <= in_title, (query, candidate_rows, titles)
            assert all(SECRET not in repr(tuple(r)).lower() for r in rows), (query, candidate_rows)
    # Ranking every match gives the same first page: the head changed the sample, not the rank.
    assert {r["title"] for r in (await _box(pool, "glimmerstone", 300))[:2]} == in_title


async def test_a_head_short_of_candidate_rows_is_filled_from_the_rest_once_each(common_word, pool) -> None:
    """Two public sections hold the word in their title, candidate_rows 5: the other three come from
    the body sections, earliest first, none twice (the basics page is also the earliest match; a
    section ranked twice would come out twice)."""
    for sections in (1, 3):
        rows = await _box(pool, "glimmerstone", 5, sections)
        hrefs = [r["href"] for r in rows]
        assert len(hrefs) == len(set(hrefs)), hrefs
        assert {r["title"] for r in rows[:2]} == {"Glimmerstone basics", "Glimmerstone guide"}
    assert len(rows) == 5, [r["title"] for r in rows]  # at most 3 a page: all 5 candidates shown


async def test_hostile_input_on_the_head_path_never_errors(common_word, pool) -> None:
    """tsquery operators, quotes, backslashes, unicode, one letter and a very long string, with
    candidate_rows 1 so that every common word takes the head path: answers, never an error."""
    for query in ("glimmer & !", "glimmerstone:* | !x", "'glimmer", "glimmerstone\\", "\\\\", "'", "g",
                  "glimmérstone ünïcode 🙂", "glimmerstone <-> note", "(glimmer", "glimmer " * 400, "glimmerstone" * 200):
        for prefix in (True, False):
            await pool.fetch("select * from public.docs_search_box($1, '{public}', 8, 1, $2, null, null,"
                             " candidate_rows => 1)", query, prefix)
    # Operators read as spaces: one of the two public title sections (which one is the insert order).
    assert (await _box(pool, "!(glimmer", 1))[0]["title"] in {"Glimmerstone basics", "Glimmerstone guide"}


async def test_cache_drops_hrefs_filled_with_a_commit_changed_by_hand(seeded, pool, owner_database_url) -> None:
    """A kept result's hrefs were filled with the commit of docs_source_commit: a write there (an
    update typed in psql, a row deleted) is a new index state, as a write to docs_section is."""
    import asyncpg

    from app.search.search_box import SearchCache

    cache = SearchCache(8)
    owner = await asyncpg.connect(owner_database_url)
    try:
        source = await owner.fetchval("select source from docs_section where page = 'widget.mdx' limit 1")
        await owner.execute("update docs_section set href = '/blob/{commit}/' || href where page = 'widget.mdx'")
        await owner.execute("insert into docs_source_commit (source, commit, fill_hrefs) values ($1, 'aaa', true)"
                            " on conflict (source) do update set commit = 'aaa', fill_hrefs = true", source)

        def href() -> str:
            return result["results"][0]["url"]

        result = await _search(pool, "embe", ["public"], cache=cache)
        assert "/blob/aaa/" in href() and cache.misses == 1
        result = await _search(pool, "embe", ["public"], cache=cache)
        assert "/blob/aaa/" in href() and cache.hits == 1
        await owner.execute("update docs_source_commit set commit = 'bbb' where source = $1", source)
        result = await _search(pool, "embe", ["public"], cache=cache)
        assert "/blob/bbb/" in href() and cache.hits == 1
        await owner.execute("delete from docs_source_commit where source = $1", source)
        result = await _search(pool, "embe", ["public"], cache=cache)
        assert "/blob/{commit}/" in href() and cache.hits == 1
        # A statement that changes no commit (each sync's record of an unchanged one) keeps the state.
        await owner.execute("insert into docs_source_commit (source, commit, fill_hrefs) values ($1, 'ccc', true)",
                            source)
        await _search(pool, "embe", ["public"], cache=cache)
        await owner.execute("select public.docs_source_commit_record(array[$1], '{ccc}', '{true}')", source)
        await owner.execute("delete from docs_source_commit where source = 'no such source'")
        result = await _search(pool, "embe", ["public"], cache=cache)
        assert "/blob/ccc/" in href() and cache.hits == 2
    finally:
        await owner.close()
