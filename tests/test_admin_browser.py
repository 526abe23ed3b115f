"""The operator console in a real headless Chromium: sign in, Sources with a reindex in progress,
the Tester, the Gaps, the read replica's lag; data shown as text only; keyboard; 360 px."""

from __future__ import annotations

import threading

import pytest

from app.config import get_settings
from tests.helpers import make_docs_repo
from tests.test_admin import DOCS, TOKEN
from tests.test_replica import pair  # noqa: F401 - the fixture: a primary and a streaming replica
from tests.test_widget_browser import ARGS, CHROMIUM, OUTPUT, SHOTS, browser  # noqa: F401 - the fixture

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)"),
]

HOSTILE = '<img src=x onerror="window.__pwned=1">how do I embed the widget'


@pytest.fixture
def console(monkeypatch, clean_db, tmp_path, start_server):
    monkeypatch.setenv("ADMIN_TOKEN", TOKEN)
    monkeypatch.setenv("DOCS_REPO", str(make_docs_repo(tmp_path / "repo", DOCS)))
    get_settings.cache_clear()
    return start_server


def sign_in(page, token: str = TOKEN) -> None:
    page.get_by_label("Admin token").fill(token)
    page.get_by_label("Admin token").press("Enter")


def test_sources_view_reindexes_with_progress_and_keeps_the_token_out_of_urls(
    fake_gemini, console, browser  # noqa: F811
) -> None:
    server = console()
    OUTPUT.mkdir(exist_ok=True)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    urls: list[str] = []
    page.on("request", lambda r: urls.append(r.url))
    page.goto(server.url + "/admin")
    sign_in(page, "wrong-token-wrong-token")
    page.get_by_role("alert").filter(has_text="not accepted").wait_for()
    sign_in(page)
    card = page.locator("article[data-source=docs]")
    card.wait_for()
    assert "never synced" in card.text_content()

    fake_gemini.embed_gate = threading.Event()
    try:
        page.get_by_role("button", name="Reindex all").click()
        bar = page.get_by_label("embedding", exact=True)
        bar.wait_for()  # the progress of the running job, while its embedding waits
        assert bar.get_attribute("max") == "5" and bar.get_attribute("value") == "0"
        assert page.get_by_role("button", name="Reindex all").is_disabled()
        page.screenshot(path=str(OUTPUT / "admin-reindexing.png"))
    finally:
        fake_gemini.embed_gate.set()
    page.locator("[data-job-state=ok]").wait_for()
    page.wait_for_function("() => document.querySelector('article[data-source=docs]').textContent.includes('ok')")
    facts = card.locator("dd").all_text_contents()
    assert facts[:2] == ["3", "5"]  # pages, chunks
    assert "gemini-embedding-001@768: 5" in facts[2]
    page.screenshot(path=str(OUTPUT / "admin-sources.png"))

    assert page.evaluate("sessionStorage.getItem('docschat-admin-token')") == TOKEN
    page.reload()  # typed once: the tab remembers it
    card.wait_for()
    assert all(TOKEN not in url for url in urls) and TOKEN not in page.url
    page.get_by_role("button", name="Sign out").click()
    assert page.evaluate("sessionStorage.getItem('docschat-admin-token')") is None
    page.get_by_label("Admin token").wait_for()


def test_tester_by_keyboard_at_360px_shows_a_hostile_question_as_text(console, monkeypatch, browser) -> None:  # noqa: F811
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    server = console()
    import httpx

    from tests.test_admin import auth, wait_for_job

    with httpx.Client(base_url=server.url, timeout=30) as client:
        wait_for_job(client, client.post("/admin/api/reindex", headers=auth()).json()["job"]["id"])
    page = browser.new_page(viewport={"width": 360, "height": 740})
    page.goto(server.url + "/admin")
    page.keyboard.type(TOKEN)  # the token field has the focus
    page.keyboard.press("Enter")
    page.locator("article[data-source=docs]").wait_for()
    page.get_by_role("tab", name="Sources").focus()
    page.keyboard.press("ArrowRight")
    assert page.get_by_role("tab", name="Tester").get_attribute("aria-selected") == "true"
    page.get_by_label("Question", exact=True).wait_for()
    assert page.evaluate("document.activeElement.id") == "tab-tester"  # focus follows the arrow
    for _ in range(3):  # then Tab leads into the view (past the Sign out button)
        if page.evaluate("document.activeElement.id") == "question":
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "question"
    page.keyboard.type(HOSTILE)
    page.keyboard.press("Enter")
    asked = page.locator(".asked")
    asked.wait_for()
    assert asked.text_content() == HOSTILE
    assert page.locator("#tester-result img").count() == 0
    assert page.evaluate("window.__pwned") is None
    # The markup words are unknown to the docs: this wording is refused, and the page says so.
    assert "would refuse" in page.locator("#tester-result .card").first.text_content()
    assert "none reaches the model" in page.locator("#tester-result").text_content()
    passages = page.locator(".passage")
    assert passages.count() >= 1
    assert "Chat widget" in passages.first.locator("h3").text_content()
    assert "script tag" in passages.first.locator("pre").text_content()
    decisions = page.locator("#tester-result table").first.locator("td .badge").all_text_contents()
    assert decisions[0] == "kept" and all(d.startswith(("kept", "dropped")) for d in decisions)
    # Readable at 360 px: nothing wider than the screen but the tables' own scroll boxes.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(OUTPUT / "admin-tester-360.png"), full_page=True)


def test_a_long_page_title_leaves_the_tester_tables_decisions_in_view(
    console, monkeypatch, tmp_path, browser  # noqa: F811
) -> None:
    """A title that is one long word (and its path) fills the first column; the scores and the
    kept/dropped decisions stay beside it, on screen, without scrolling the table sideways."""
    import httpx

    from tests.test_admin import auth, wait_for_job

    long_word = "Averyveryverylongunbrokenwidgettitlewithoutanyspaces" * 3
    page_text = f"---\ntitle: {long_word}\npublic: true\n---\nEmbed the widget with one script tag.\n"
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    monkeypatch.setenv("DOCS_REPO", str(make_docs_repo(tmp_path / "long", {**DOCS, "long.mdx": page_text})))
    server = console()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        wait_for_job(client, client.post("/admin/api/reindex", headers=auth()).json()["job"]["id"])
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.url + "/admin")
    sign_in(page)
    page.get_by_role("tab", name="Tester").click()
    page.get_by_label("Question", exact=True).fill("How do I embed the widget with a script tag?")
    page.get_by_label("Question", exact=True).press("Enter")
    page.locator(".asked").wait_for()
    tables = page.evaluate("""() => [...document.querySelectorAll('#tester-result .scroll')].map(box => {
      const right = box.getBoundingClientRect().right;
      const cells = [...box.querySelectorAll('td:not(:first-child)')];
      return {scroll: box.scrollWidth, room: box.clientWidth, cut: cells.filter(c => c.getBoundingClientRect().right > right + 0.5).length};
    })""")
    assert page.locator("#tester-result td", has_text=long_word).count() >= 1
    assert tables and all(t["scroll"] <= t["room"] and t["cut"] == 0 for t in tables), tables
    page.screenshot(path=str(OUTPUT / "admin-tester-long-title.png"), full_page=True)


def test_gaps_view_groups_newest_first_and_shows_questions_as_text(console, monkeypatch, clean_db, browser) -> None:  # noqa: F811
    import httpx

    from tests.test_admin import HOSTILE_GAP, ask_unanswerable, auth, query, wait_for_job

    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "100")
    monkeypatch.setenv("RATE_LIMIT_PER_DAY", "100")
    server = console()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        wait_for_job(client, client.post("/admin/api/reindex", headers=auth()).json()["job"]["id"])
        ask_unanswerable(client, clean_db)
        # A gap recorded before the outcome column, answered above the low-confidence line, was
        # "partly" covered (app/chat/gaps.py).
        query(clean_db, "insert into public.docs_chat_gap (question_key, question, best_page, confidence, refused,"
                        " first_seen, last_seen) values ('partly', 'Are answers kept for 24 months?', 'privacy.mdx',"
                        " 0.9, false, now() - interval '1 hour', now() - interval '1 hour')")
    page = browser.new_page(viewport={"width": 360, "height": 740})
    page.goto(server.url + "/admin")
    sign_in(page)
    page.get_by_role("tab", name="Gaps").click()
    questions = page.locator(".gap-question")
    questions.first.wait_for()
    assert questions.all_text_contents()[0] == HOSTILE_GAP  # the newest first, as text
    assert questions.all_text_contents()[1].lower().startswith("what is the capital")
    assert page.locator(".gap .badge").all_text_contents() == ["× 1", "× 2", "× 1"]
    outcomes = [card.text_content() for card in page.locator(".gap").all()]
    assert "refused: far from every page (refused_offtopic)" in outcomes[0]
    assert "answered in part: the docs cover only some of it (partly)" in outcomes[2], outcomes
    assert page.locator("#gaps img").count() == 0 and page.evaluate("window.__pwned") is None
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(OUTPUT / "admin-gaps-360.png"), full_page=True)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Clear all").click()
    page.get_by_text("No gaps recorded.").wait_for()


def test_a_sync_killed_before_it_finished_is_shown_as_interrupted(console, monkeypatch, clean_db, browser) -> None:  # noqa: F811
    """The Service facts said nothing of a killed sync until the next job marked it."""
    import uuid

    from tests.test_admin import query

    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    server = console()
    killed = uuid.uuid4()
    query(clean_db, "insert into public.docs_sync_run (job_id, source, trigger, state)"
                    " values ($1, 'docs', 'scheduler', 'running')", killed)  # its rows running, no lock held
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.url + "/admin")
    sign_in(page)
    page.locator("#overview dt", has_text="interrupted").wait_for()
    assert f"sync job {killed} (scheduler) stopped before it finished" in page.locator("#overview").text_content()


def test_tester_spells_out_the_confidence_and_a_thumbs_down_is_one_click_from_it(
    fake_gemini, console, monkeypatch, browser  # noqa: F811
) -> None:
    """With embeddings the explanation holds a cosine scale and weights: shown as values, never
    "[object Object]". A 👎 answer's question, beside the gaps, opens in the Tester with one click."""
    import httpx

    from tests.test_admin import auth, wait_for_job

    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "100")
    server = console()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        wait_for_job(client, client.post("/admin/api/reindex", headers=auth()).json()["job"]["id"])
        rated = []
        for question, rating in (("How do I run a sync?", "down"), ("How do I embed the widget?", "up")):
            response = client.post("/docs/chat", json={"message": question})
            message_id = next(line for line in response.text.split("\n\n") if '"type":"start"' in line)
            message_id = message_id.split('"messageId":"')[1].split('"')[0]
            rated.append(client.post("/docs/chat/feedback", json={"messageId": message_id, "rating": rating,
                                                                  "comment": "<b>which</b> command?"}).status_code)
        assert rated == [200, 200]
    page = browser.new_page(viewport={"width": 360, "height": 740})
    page.goto(server.url + "/admin")
    sign_in(page)
    page.get_by_role("tab", name="Gaps").click()
    items = page.locator(".feedback-item")
    items.first.wait_for()
    assert page.locator(".feedback-summary").text_content() == "helpful 1 · not helpful 1"
    assert items.first.get_attribute("data-rating") == "up"  # newest first
    down = page.locator(".feedback-item[data-rating=down]")
    assert down.locator(".feedback-question").text_content() == "How do I run a sync?"
    assert "<b>which</b> command?" in down.text_content() and page.locator("#feedback b").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(OUTPUT / "admin-feedback-360.png"), full_page=True)

    down.get_by_role("button", name="Test").click()
    asked = page.locator(".asked")
    asked.wait_for()
    assert asked.text_content() == "How do I run a sync?"
    assert page.get_by_role("tab", name="Tester").get_attribute("aria-selected") == "true"
    explained = page.locator("#tester-result dd").all_text_contents()
    how = next(text for text in explained if "cosine_scale" in text)
    assert "[object Object]" not in page.locator("#tester-result").text_content()
    assert "cosine_scale: {unrelated: " in how and "weights: {cosine: " in how, how
    page.screenshot(path=str(OUTPUT / "admin-tester-confidence-360.png"), full_page=True)


def _replica_fact(page) -> str:
    fact = page.locator("#overview dt", has_text="read replica")
    fact.wait_for()
    return str(page.locator("#overview dt:has-text('read replica') + dd").text_content())


def test_service_facts_say_when_no_read_replica_is_configured_or_the_url_is_not_one(
    console, monkeypatch, clean_db, browser  # noqa: F811
) -> None:
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    server = console()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.url + "/admin")
    sign_in(page)
    assert _replica_fact(page) == "none (DATABASE_READ_URL unset): retrieval reads the primary"
    monkeypatch.setenv("DATABASE_READ_URL", clean_db)  # the primary itself
    server = console()
    page.goto(server.url + "/admin")  # another port: another origin, signed out
    sign_in(page)
    assert _replica_fact(page) == "DATABASE_READ_URL is not a replica (its server is not in recovery)"
    assert page.locator("#overview dd .warn", has_text="not a replica").count() == 1


def test_service_facts_show_a_real_replica_falling_behind_and_catching_up(pair, monkeypatch, tmp_path, browser) -> None:  # noqa: F811
    """Issue 34: `docschat status` and /admin/api/status reported the replica; the page did not."""
    import re

    from tests.conftest import LiveServer
    from tests.helpers import wait_until
    from tests.test_admin import query

    primary, replica = pair.url("primary", "docschat"), pair.url("replica", "docschat")

    def replayed_all() -> bool:
        lsn = query(primary, "select pg_catalog.pg_current_wal_insert_lsn()::text")[0][0]
        return bool(query(replica, "select pg_catalog.pg_last_wal_replay_lsn() >= $1::text::pg_lsn", lsn)[0][0])

    for name, value in {"DATABASE_URL": primary, "DATABASE_READ_URL": replica, "ADMIN_TOKEN": TOKEN,
                        "EMBEDDING_PROVIDER": "none", "DOCS_REPO": str(make_docs_repo(tmp_path / "repo", DOCS))}.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    query(primary, "select pg_catalog.pg_current_xact_id()::text")  # a transaction for the replica to replay
    wait_until(replayed_all, what="the replica to replay everything committed")
    server = LiveServer().start()
    OUTPUT.mkdir(exist_ok=True)
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(server.url + "/admin")
        sign_in(page)
        caught_up = "caught up · retrieval reads the replica"

        def says_caught_up() -> bool:  # the server's own start wrote to the primary: replayed soon
            if _replica_fact(page) == caught_up:
                return True
            page.reload()  # signed in: the tab keeps the token
            return False

        wait_until(says_caught_up, what="the page to say the replica caught up")
        page.screenshot(path=str(OUTPUT / "admin-replica-caught-up.png"))

        query(replica, "select pg_catalog.pg_wal_replay_pause()")
        wait_until(lambda: query(replica, "select pg_catalog.pg_get_wal_replay_pause_state()")[0][0] == "paused",
                   what="the replica's replay to pause")
        query(primary, "select pg_catalog.pg_current_xact_id()::text")  # committed, not replayed
        page.reload()
        behind = re.compile(r"behind: [\d,]+ bytes of WAL to replay · last replayed transaction [\d.,]+ s ago"
                            r" · visitors get the index as it was")
        assert behind.fullmatch(_replica_fact(page)), _replica_fact(page)
        page.screenshot(path=str(OUTPUT / "admin-replica-behind.png"))
        narrow = browser.new_page(viewport={"width": 360, "height": 740})
        narrow.goto(server.url + "/admin")
        sign_in(narrow)
        assert behind.fullmatch(_replica_fact(narrow))
        assert narrow.evaluate("document.documentElement.scrollWidth") <= 360
        narrow.screenshot(path=str(OUTPUT / "admin-replica-behind-360.png"), full_page=True)

        query(replica, "select pg_catalog.pg_wal_replay_resume()")
        wait_until(says_caught_up, what="the page to say the replica caught up again")
    finally:
        server.stop()


def seed_insights(url: str, days: int = 90) -> None:
    """`days` days of rollup rows (as the app writes them, sql/026_insights.sql) ending today, with a
    hostile question among the top ones: the Insights view's charts and tables have data to draw."""
    import asyncio
    from datetime import UTC, datetime, timedelta

    import asyncpg

    today = datetime.now(UTC).date()

    async def go() -> None:
        conn = await asyncpg.connect(url)
        try:
            for n in range(days):
                day = today - timedelta(days=n)
                questions = 18 + (n * 7) % 13 + (6 if day.weekday() < 5 else 0)
                refused, partly = 2 + n % 4, 1 + (n * 5) % 3
                helpful, not_helpful = 3 + n % 5, (n * 3) % 4
                await conn.execute("insert into public.docs_insight_day values ($1, $2, $3, $4, $5, $6, $7)",
                                   day, questions, questions - refused - partly, partly, refused, helpful, not_helpful)
                for door, requests in (("chat", questions), ("search", 60 + (n * 11) % 40), ("mcp", 5 + n % 9),
                                       ("llms_txt", 2 + (n * 3) % 5)):
                    await conn.execute("insert into public.docs_insight_door values ($1, $2, $3)", day, door, requests)
            for rank, (question, count) in enumerate([(HOSTILE, 14), ("How do I embed the widget?", 31),
                                                      ("How do I run a sync after a merge?", 22),
                                                      ("Can I self-host the search box?", 9)]):
                topic = await conn.fetchval("insert into public.docs_insight_topic (model, embedding)"
                                            " values (null, null) returning id")
                await conn.execute("insert into public.docs_insight_topic_total values ($1, $2)", topic, count)
                await conn.execute("insert into public.docs_insight_question values ($1, $2, $3, $4, $5, $6, $7, $8)",
                                   today - timedelta(days=rank), f"key{rank}", topic, question, count, count - 3, 2, 1)
            for page, title, citations in (("https://docs.example.com/widget", "Chat widget", 40),
                                           ("https://docs.example.com/sync", "Syncing docs", 25)):
                await conn.execute("insert into public.docs_insight_page values ($1, $2, $3, $4)",
                                   today, page, title, citations)
            await conn.execute("insert into public.docs_insight_no_result values ($1, 'search', 'kubernetes helm',"
                               " 'kubernetes helm', 7), ($1, 'chat', 'what is the capital of france?',"
                               " 'What is the capital of France?', 3)", today)
        finally:
            await conn.close()

    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # Playwright's loop may be running here
        pool.submit(lambda: asyncio.run(go())).result()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_insights_view_draws_the_series_and_the_tables_by_keyboard(console, monkeypatch, clean_db, browser,  # noqa: F811
                                                                    scheme) -> None:
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    server = console()
    seed_insights(clean_db)
    OUTPUT.mkdir(exist_ok=True)
    for width in (1280, 360):
        context = browser.new_context(viewport={"width": width, "height": 900 if width > 400 else 740},
                                      color_scheme=scheme)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
        page.goto(server.url + "/admin")
        sign_in(page)
        page.locator("article[data-source=docs]").wait_for()
        page.get_by_role("tab", name="Sources").focus()
        for _ in range(3):  # Sources → Tester → Gaps → Insights, by arrow keys
            page.keyboard.press("ArrowRight")
        assert page.get_by_role("tab", name="Insights").get_attribute("aria-selected") == "true"
        page.locator("#chart-outcomes canvas").wait_for()
        assert page.locator("#view-insights canvas").count() == 3  # three charts
        assert page.locator("#insights-days tbody tr").count() == 30
        legend = page.locator("#chart-outcomes .u-legend").text_content()
        assert "answered" in legend and "partly" in legend and "refused" in legend
        assert "questions" in page.locator("#chart-outcomes").get_attribute("aria-label")
        questions = page.locator("#insights-questions td:first-child").all_text_contents()
        assert questions == ["How do I embed the widget?", "How do I run a sync after a merge?", HOSTILE,
                             "Can I self-host the search box?"]
        assert page.locator("#view-insights img").count() == 0 and page.evaluate("window.__pwned") is None
        assert page.locator("#insights-pages td").first.text_content().startswith("Chat widget")
        assert "kubernetes helm" in page.locator("#insights-misses").text_content()
        # The window selector: Tab reaches the checked radio, arrows move the choice.
        page.locator("#insights-window [aria-checked=true]").focus()
        page.keyboard.press("ArrowRight")
        page.wait_for_function("() => document.querySelectorAll('#insights-days tbody tr').length === 90")
        assert page.evaluate("document.activeElement.textContent") == "90 days"
        canvas = page.locator("#chart-outcomes canvas").bounding_box()
        assert canvas and canvas["width"] <= width
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert not errors, errors
        page.locator("#view-insights").screenshot(path=str(OUTPUT / f"admin-insights-{width}-{scheme}.png"))
        page.locator("#chart-outcomes").scroll_into_view_if_needed()
        page.screenshot(path=str(OUTPUT / f"admin-insights-{width}-{scheme}-screen.png"))
        context.close()


@pytest.mark.parametrize(("width", "scheme"), [(360, "light"), (1280, "dark")])
def test_a_follow_up_opens_in_the_tester_with_its_conversation_and_answers_are_text(
    console, monkeypatch, browser, width, scheme  # noqa: F811
) -> None:
    import httpx

    from tests.test_admin import auth, wait_for_job
    from tests.test_admin_tester_conversation import FIRST, FOLLOW_UP, ask

    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "100")
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    server = console()
    with httpx.Client(base_url=server.url, timeout=30) as visitor:
        wait_for_job(visitor, visitor.post("/admin/api/reindex", headers=auth()).json()["job"]["id"])
        ask(visitor, FIRST)
        answered = ask(visitor, FOLLOW_UP)
        visitor.post("/docs/chat/feedback", json={"messageId": answered["id"], "rating": "down"})
    page = browser.new_page(viewport={"width": width, "height": 800}, color_scheme=scheme)
    page.goto(server.url + "/admin")
    sign_in(page)
    page.get_by_role("tab", name="Gaps").click()
    down = page.locator(".feedback-item[data-rating=down]")
    down.wait_for()
    assert "```" not in down.text_content() and "**" not in down.text_content()
    if SHOTS.is_dir():
        page.screenshot(path=str(SHOTS / f"admin-feedback-{width}-{scheme}.png"), full_page=True)
    down.get_by_role("button", name="Test").click()
    page.locator(".asked").wait_for()
    history = page.locator("#tester-result .history")
    assert history.text_content() == f"“{FIRST}”"
    verdict = "would answer" if answered["would_answer"] else "would refuse"
    assert page.locator("#tester-result").get_by_text(verdict, exact=True).count() == 1
    if SHOTS.is_dir():
        page.screenshot(path=str(SHOTS / f"admin-tester-follow-up-{width}-{scheme}.png"))
    # The question edited: asked alone.
    page.get_by_role("tab", name="Tester").click()
    page.locator("#question").fill(FOLLOW_UP + " ")
    page.locator("#tester-form").evaluate("form => form.requestSubmit()")
    page.wait_for_function("() => !document.querySelector('#tester-result .history')")
    page.close()
