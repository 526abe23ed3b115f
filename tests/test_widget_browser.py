"""The widget and the demo page in a real headless Chromium (Debian's), driven by Playwright."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import seed_docs
from tests.test_chat import DOCS
from tests.test_feedback import code_without_link  # noqa: F401 - the fixture

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
OUTPUT = Path(__file__).resolve().parent.parent / "test-output"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)"),
]

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]

# Records, inside the widget's shadow root, the order in which guide links and summary text appear.
ORDER_PROBE = """
() => {
  const root = document.querySelector('docs-chat').shadowRoot;
  window.__order = [];
  new MutationObserver(() => {
    const last = [...root.querySelectorAll('.assistant')].pop();
    if (!last) return;
    if (last.querySelector('.guides a') && !window.__order.includes('guides')) window.__order.push('guides');
    if (last.querySelector('.summary').textContent.trim() && !window.__order.includes('summary')) window.__order.push('summary');
  }).observe(root, {subtree: true, childList: true, characterData: true});
}
"""


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def demo_server(monkeypatch, clean_db, start_server):
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "2")
    seed_docs(clean_db, DOCS)
    return start_server()


def widget(page):
    return page.locator("docs-chat")


def wait_until_answered(page) -> None:
    """The stream has ended: the widget's Stop button is hidden again."""
    page.wait_for_function(
        "() => !document.querySelector('docs-chat').shadowRoot.querySelector('.stop').offsetParent"
    )


def ask(page, question: str) -> None:
    box = widget(page).get_by_label("Your question")
    box.fill(question)
    box.press("Enter")
    wait_until_answered(page)


def test_ask_restore_clear_and_rate_limit(demo_server, browser) -> None:
    OUTPUT.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    sent_bodies: list[str] = []
    page.on("request", lambda r: sent_bodies.append(r.post_data or "") if r.method == "POST" else None)
    page.goto(demo_server.url + "/")
    launcher = widget(page).get_by_role("button", name="Ask the documentation")
    launcher.click()
    page.evaluate(ORDER_PROBE)
    box = widget(page).get_by_label("Your question")
    box.fill("How do I embed the widget with a script tag?")
    box.press("Enter")
    summary = widget(page).locator(".assistant .summary").last
    summary.wait_for(state="visible")
    wait_until_answered(page)
    assert page.evaluate("window.__order") == ["guides", "summary"]
    guide = widget(page).locator(".assistant .guides a").first
    assert guide.text_content() == "Chat widget" and "/docs/widget#embed-the-widget" in guide.get_attribute("href")
    assert "script tag" in summary.text_content()
    assert sent_bodies == ['{"message":"How do I embed the widget with a script tag?"}']  # nothing else leaves the page
    page.screenshot(path=str(OUTPUT / "widget-answered.png"))

    page.reload()
    widget(page).get_by_role("button", name="Ask the documentation").click()
    widget(page).locator(".msg.user").first.wait_for()
    assert widget(page).locator(".msg.user").first.text_content() == "How do I embed the widget with a script tag?"
    assert widget(page).locator(".assistant .guides a").first.text_content() == "Chat widget"

    widget(page).get_by_role("button", name="Clear Chat").click()
    widget(page).get_by_role("button", name="Delete").click()
    page.wait_for_function("() => document.querySelector('docs-chat').shadowRoot.querySelectorAll('.msg').length === 0")
    page.reload()
    widget(page).get_by_role("button", name="Ask the documentation").click()
    page.wait_for_timeout(500)
    assert widget(page).locator(".msg").count() == 0

    for question in ("run a sync", "colors"):
        ask(page, question)
    notice = widget(page).locator(".notice.error").last
    notice.wait_for(state="visible")
    assert "come back" in notice.text_content()
    context.close()


def test_keyboard_small_screen_dark_mode_and_isolation(demo_server, browser) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, color_scheme="dark")
    page = context.new_page()
    page.goto(demo_server.url + "/")
    launcher = widget(page).get_by_role("button", name="Ask the documentation")
    # The host page's `button { background: hotpink !important }` must not reach the widget.
    assert launcher.evaluate("el => getComputedStyle(el).backgroundColor") != "rgb(255, 105, 180)"
    launcher.click()
    panel = widget(page).locator(".panel")
    width = panel.evaluate("el => el.getBoundingClientRect().width")
    assert 300 <= width <= 360
    assert panel.evaluate("el => getComputedStyle(el).backgroundColor") == "rgb(23, 24, 28)"  # dark scheme
    for _ in range(8):  # focus stays inside the panel
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement && document.activeElement.tagName") == "DOCS-CHAT"
    page.keyboard.press("Escape")
    assert panel.is_hidden()
    context.close()


def defined_widget(server, browser, **options):
    """A new page of the server's demo, once the widget's element is defined (addAssistant draws
    an answer's Markdown in it without asking the server)."""
    page = browser.new_page(**options)
    page.goto(server.url + "/")
    page.wait_for_function("() => customElements.get('docs-chat')")
    return page


def test_markdown_from_answers_is_never_executed(demo_server, browser) -> None:
    page = defined_widget(demo_server, browser)
    html = page.evaluate(
        """() => {
          const el = document.querySelector('docs-chat');
          el.shadowRoot.querySelector('.launcher').click();
          el.addAssistant([{url: 'javascript:alert(1)', title: 'bad'}, {url: '/docs/ok', title: 'ok'}],
            '<img src=x onerror="window.pwned=1"> **bold** [x](javascript:alert(1)) [y](/docs/y) [2]');
          return el.shadowRoot.querySelector('.assistant').innerHTML;
        }"""
    )
    page.wait_for_timeout(200)
    assert page.evaluate("window.pwned") is None
    assert "<img" not in html and "&lt;img" in html and "<strong>bold</strong>" in html
    assert "javascript:" not in html.replace("[x](javascript", "")  # never as an href
    # Drawn as the browser resolves them: absolute, on this page's origin.
    assert f'href="{demo_server.url}/docs/y"' in html and f'href="{demo_server.url}/docs/ok"' in html


def test_an_answer_draws_emphasis_and_escapes_as_the_page_shows_them(demo_server, browser) -> None:
    """structlog's answers showed "*before*" and "*structlog*" with their asterisks: the widget drew
    only **bold**. Emphasis opens before a non-space and closes after one, `_` only outside a word,
    and a character the page reader escaped (`\\*`) is drawn as itself."""
    page = defined_widget(demo_server, browser)
    drawn = page.evaluate(
        r"""() => {
          const el = document.querySelector('docs-chat');
          el.shadowRoot.querySelector('.launcher').click();
          el.addAssistant([{url: '/docs/a', title: 'a'}],
            'It runs at import time *before* you configure _structlog_, 2 * 3 * 4, snake_case_name, ' +
            'a literal \\*star\\* and **bold** [1]');
          const summary = el.shadowRoot.querySelector('.assistant .summary');
          return {em: [...summary.querySelectorAll('em')].map(e => e.textContent), text: summary.innerText};
        }"""
    )
    assert drawn["em"] == ["before", "structlog"], drawn
    assert "2 * 3 * 4, snake_case_name, a literal *star* and bold [1]" in drawn["text"], drawn
    assert "\\" not in drawn["text"] and "_structlog_" not in drawn["text"], drawn


def test_demo_finds_the_widget_page_with_the_offline_model(clean_db, monkeypatch) -> None:
    """The demo question over the project's own docs/, with the model the demo uses."""
    import asyncio

    from app import PROJECT_ROOT
    from app.config import get_settings
    from app.corpus.compose import DocsSource
    from app.db.pool import create_pool
    from app.embeddings.local import local_model_installed
    from app.search.conversation import retrieve_in_conversation
    from app.search.retrieve import build_retriever
    from tests.helpers import sync_corpus

    if not (PROJECT_ROOT / ".git").exists():
        pytest.skip("the project's docs are read through git; no .git here")
    monkeypatch.setenv("EMBEDDING_PROVIDER", "local" if local_model_installed() else "none")
    get_settings.cache_clear()

    async def go() -> tuple[list[str], Any]:
        pool = await create_pool(clean_db)
        try:
            settings = get_settings()
            retriever = build_retriever(pool, settings)
            await sync_corpus(pool, DocsSource(PROJECT_ROOT, "HEAD", "docs"), settings,
                              retriever.embedder.provider if retriever.embedder else None)
            result = await retriever.retrieve("how do I embed the widget?")
            # Issue 47: theming is documented, and the chat (its retrieval and answer check) finds it.
            colour = await retrieve_in_conversation(retriever, "How do I change the widget's colour?",
                                                    audiences=settings.anonymous_audiences)
            return [p.page for p in result.pages], colour
        finally:
            await pool.close()

    pages, colour = asyncio.run(go())
    assert pages[0] == "guides/widget.mdx", pages
    assert colour.would_answer, colour.to_dict()
    assert (colour.pages[0].page, colour.pages[0].heading) == ("guides/widget.mdx", "Change the widget's colours"), [
        (p.page, p.heading) for p in colour.pages]



# --- issue 30: what a visitor sees ---------------------------------------------------------------

LOG_SCROLL = """() => {
  const root = document.querySelector('docs-chat').shadowRoot;
  const log = root.querySelector('.log').getBoundingClientRect();
  const notice = [...root.querySelectorAll('.notice')].filter(n => !n.hidden).pop().getBoundingClientRect();
  return {inView: notice.top >= log.top && notice.bottom <= log.bottom + 1, top: notice.top, logBottom: log.bottom};
}"""


def test_at_360px_the_placeholder_fits_and_a_rate_limit_notice_is_scrolled_into_view(demo_server, browser) -> None:
    OUTPUT.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.goto(demo_server.url + "/")
    widget(page).get_by_role("button", name="Ask the documentation").click()
    box = widget(page).get_by_label("Your question")
    # The placeholder's text, in the textarea's own font, fits its content box on one line.
    fit = box.evaluate("""el => {
      const style = getComputedStyle(el);
      const ctx = document.createElement('canvas').getContext('2d');
      ctx.font = style.font;
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return {text: ctx.measureText(el.placeholder).width, room: room};
    }""")
    assert fit["text"] <= fit["room"], fit
    # Every header control lies inside the panel: none is pushed past its right edge and clipped.
    clipped = page.evaluate("""() => {
      const root = document.querySelector('docs-chat').shadowRoot;
      const panel = root.querySelector('.panel').getBoundingClientRect();
      return [...root.querySelectorAll('header button')].filter(b => {
        const r = b.getBoundingClientRect();
        return r.left < panel.left || r.right > panel.right - 1;
      }).map(b => b.textContent);
    }""")
    assert clipped == [], clipped
    title = page.evaluate("""() => {
      const h2 = document.querySelector('docs-chat').shadowRoot.querySelector('header h2');
      return {scroll: h2.scrollWidth, client: h2.clientWidth};
    }""")
    assert title["scroll"] <= title["client"], title  # the title wraps between words, never cut
    page.screenshot(path=str(OUTPUT / "widget-360-open.png"))

    # A long conversation, then the question limit (2 an hour here): the notice must be seen.
    page.evaluate("""() => {
      const el = document.querySelector('docs-chat');
      for (let i = 0; i < 12; i++) { el.addUser('earlier question ' + i); el.addAssistant([], 'An earlier answer.\\n\\nWith two paragraphs.'); }
    }""")
    for question in ("run a sync", "colors", "embed the widget"):
        ask(page, question)
    notice = widget(page).locator(".notice.error").last
    notice.wait_for(state="visible")
    assert "come back" in notice.text_content()
    # Shown after the log last scrolled: the notice brings itself into view.
    placement = page.evaluate(LOG_SCROLL)
    assert placement["inView"], placement
    page.screenshot(path=str(OUTPUT / "widget-360-rate-limited.png"))
    context.close()


def test_soft_line_breaks_are_spaces_and_hard_breaks_stay(demo_server, browser) -> None:
    page = defined_widget(demo_server, browser, viewport={"width": 360, "height": 740})
    rendered = page.evaluate("""() => {
      const el = document.querySelector('docs-chat');
      el.shadowRoot.querySelector('.launcher').click();
      const view = el.addAssistant([], 'Add the script tag\\nto every page of the site.  \\nThen reload.\\\\\\nDone.\\n\\n- one\\n- two');
      const p = view.node.querySelector('.summary p');
      return {text: p.textContent, breaks: p.querySelectorAll('br').length,
              items: [...view.node.querySelectorAll('.summary li')].map(li => li.textContent)};
    }""")
    assert rendered["text"] == "Add the script tag to every page of the site.Then reload.Done."
    assert rendered["breaks"] == 2 and rendered["items"] == ["one", "two"]
    page.screenshot(path=str(OUTPUT / "widget-360-soft-breaks.png"))


def test_a_nested_list_is_drawn_inside_its_item_and_numbers_stay(demo_server, browser) -> None:
    """An answer quotes a nested item on its own indented line (app/chat/extractive.py); drawn flat,
    "Install" and its two steps read as three siblings, and an ordered list lost its numbers."""
    page = defined_widget(demo_server, browser, viewport={"width": 360, "height": 740})
    drawn = page.evaluate("""() => {
      const el = document.querySelector('docs-chat');
      el.shadowRoot.querySelector('.launcher').click();
      const view = el.addAssistant([], '- Install [1]\\n  - with pip\\n  - with uv\\n- Configure\\n\\n3. third\\n4. fourth');
      const tree = (list) => [...list.children].map(li => [li.firstChild.textContent,
        ...[...li.querySelectorAll(':scope > ul, :scope > ol')].map(inner => [inner.tagName, tree(inner)])]);
      return [...view.node.querySelectorAll('.summary > ul, .summary > ol')].map(list =>
        [list.tagName, list.getAttribute('start'), tree(list)]);
    }""")
    assert drawn == [
        ["UL", None, [["Install ", ["UL", [["with pip"], ["with uv"]]]], ["Configure"]]],
        ["OL", "3", [["third"], ["fourth"]]],
    ], drawn
    page.screenshot(path=str(OUTPUT / "widget-360-nested-list.png"))


STATUS_PROBE = """
() => {
  const root = document.querySelector('docs-chat').shadowRoot;
  window.__statuses = [];
  // Every caption the widget wrote, from the mutation records: reading the caption when the
  // observer runs missed one that a later one replaced in the same task (a busy machine, two
  // statuses in one network read).
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type !== 'childList' || !record.target.matches || !record.target.matches('.assistant .status')) continue;
      for (const node of record.addedNodes) {
        const text = node.textContent;
        if (text && window.__statuses[window.__statuses.length - 1] !== text) window.__statuses.push(text);
      }
    }
  }).observe(root, {subtree: true, childList: true});
}
"""


@pytest.fixture
def feedback_server(fake_gemini, clean_db, start_server, monkeypatch):
    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "100")
    monkeypatch.setenv("HANDOFF_URL", "https://forum.example.com/c/help")
    monkeypatch.setenv("HANDOFF_TEXT", "Ask on the forum")
    seed_docs(clean_db, DOCS)
    return start_server()


def test_status_then_feedback_with_a_comment_and_the_way_out(feedback_server, fake_gemini, clean_db, browser) -> None:
    from tests.test_admin import query

    OUTPUT.mkdir(exist_ok=True)
    fake_gemini.replies = [
        [{"functionCall": {"name": "search_docs", "args": {"query": "run a sync"}}}],
        [{"text": "Add one script tag to your pages [1]."}],
    ]
    fake_gemini.part_delay_seconds = 0.3  # slow enough for a person (and the probe) to read the captions
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.goto(feedback_server.url + "/")
    widget(page).get_by_role("button", name="Ask the documentation").click()
    page.evaluate(STATUS_PROBE)
    box = widget(page).get_by_label("Your question")
    box.fill("How do I embed the widget with a script tag?")
    box.press("Enter")
    answer = widget(page).locator(".assistant").last
    answer.get_by_role("button", name="Not helpful").wait_for()
    statuses = page.evaluate("window.__statuses")
    assert statuses[0] == "Searching the documentation" and "Found 1 section" in statuses, statuses
    assert answer.locator(".status").is_hidden()  # the answer replaced the caption
    assert answer.locator(".handoff").is_hidden()  # answered: no way out offered yet
    page.screenshot(path=str(OUTPUT / "widget-360-feedback.png"))

    answer.get_by_role("button", name="Not helpful").click()
    comment = answer.get_by_label("What was missing? (optional)")
    comment.wait_for()
    handoff = answer.locator(".handoff a")
    handoff.wait_for()
    assert handoff.text_content() == "Ask on the forum"
    assert handoff.get_attribute("href") == "https://forum.example.com/c/help"
    assert answer.get_by_role("button", name="Not helpful").get_attribute("aria-pressed") == "true"
    comment.fill("It did not show the tag itself.")
    page.screenshot(path=str(OUTPUT / "widget-360-thumbs-down.png"))
    answer.locator(".comment").get_by_role("button", name="Send").click()
    comment.wait_for(state="hidden")
    rows = query(clean_db, "select rating, comment from docs_chat_feedback")
    assert [(r["rating"], r["comment"]) for r in rows] == [(-1, "It did not show the tag itself.")]

    # Restored from the history, the answer can still be rated.
    page.reload()
    widget(page).get_by_role("button", name="Ask the documentation").click()
    widget(page).locator(".assistant").first.get_by_role("button", name="Helpful", exact=True).click()
    widget(page).locator(".assistant .thanks").first.wait_for()
    assert [r["rating"] for r in query(clean_db, "select rating from docs_chat_feedback")] == [1]

    # While the model is silent, the caption says what is happening.
    fake_gemini.replies = []
    fake_gemini.first_part_delay_seconds = 2.0
    box = widget(page).get_by_label("Your question")
    box.fill("How do I run a sync?")
    box.press("Enter")
    status = widget(page).locator(".assistant").last.locator(".status")
    status.wait_for(state="visible")
    page.wait_for_function("() => [...document.querySelector('docs-chat').shadowRoot.querySelectorAll('.status')]"
                           ".pop().textContent === 'Writing the answer'")
    page.screenshot(path=str(OUTPUT / "widget-360-status.png"))
    widget(page).locator(".assistant").last.get_by_role("button", name="Not helpful").wait_for()
    assert status.is_hidden()
    fake_gemini.first_part_delay_seconds = 0.0

    # A question the docs do not cover offers the way out at once.
    box.fill("What's a good recipe for banana bread?")
    box.press("Enter")
    refused = widget(page).locator(".assistant").last
    refused.locator(".handoff a").wait_for()
    assert refused.locator(".handoff a").get_attribute("href") == "https://forum.example.com/c/help"
    page.screenshot(path=str(OUTPUT / "widget-360-not-covered.png"))

    # A reload keeps the way out shown with the refusal, and the rating given.
    page.reload()
    widget(page).get_by_role("button", name="Ask the documentation").click()
    restored = widget(page).locator(".assistant")
    restored.last.locator(".handoff a").wait_for()
    assert restored.last.locator(".handoff a").get_attribute("href") == "https://forum.example.com/c/help"
    assert restored.first.get_by_role("button", name="Helpful", exact=True).get_attribute("aria-pressed") == "true"
    assert restored.first.locator(".handoff").is_hidden()  # rated Yes: no way out
    context.close()


HOSTILE_MARKDOWN_PAGE = (
    "---\ntitle: Markdown page\npublic: true\n---\nThe widget renders **bold** text and `code`\nacross a soft "
    "break.\n\n## Links and markup\nSee [sync](sync.mdx), [off](//evil.example/x), [dots](/.//evil.example/x), "
    "[js](javascript:window.__xss=1) and [site](https://example.com/ok).\n\n"
    # A tag the page shows as text (escaped in the source): stored as `<img …>`, drawn as text, never run.
    "&lt;img src=x onerror=\"window.__xss=1\"&gt;\n\n<img src=x onerror=\"window.__xss=2\" />"
    "\n<script>window.__xss=1</script>\n\n![pic](https://evil.example/track.png)\n\n```html\n<b>kept as text</b>\n```\n"
)


def test_the_synced_pages_render_their_markdown_without_running_anything(demo_server, clean_db, browser) -> None:
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # Playwright's loop runs in this thread
        # .md: its raw HTML is CommonMark's; MDX 3 refuses it (unquoted attributes), so as .mdx it is not indexed
        pool.submit(seed_docs, clean_db, {**DOCS, "markdown.md": HOSTILE_MARKDOWN_PAGE}).result()
    page = browser.new_page(viewport={"width": 360, "height": 740})
    page.goto(demo_server.url + "/")
    page.get_by_role("link", name="browse the synced pages").click()
    page.get_by_role("link", name="Markdown page").click()
    page.get_by_role("heading", name="Links and markup").wait_for()
    audit = page.evaluate("""() => ({
      bold: [...document.querySelectorAll('main strong, body strong')].map(e => e.textContent),
      code: [...document.querySelectorAll('p code')].map(e => e.textContent),
      pre: [...document.querySelectorAll('pre code')].map(e => e.textContent),
      links: [...document.querySelectorAll('section a')].map(a => [a.textContent, a.href]),
      active: document.querySelectorAll('img, section script, iframe').length,
      text: document.body.innerText,
      xss: window.__xss === undefined ? null : window.__xss,
    })""")
    assert audit["xss"] is None and audit["active"] == 0, audit
    assert audit["bold"] == ["bold"] and audit["code"] == ["code"] and audit["pre"] == ["<b>kept as text</b>\n"]
    assert "#" not in audit["text"].split("Links and markup")[0].split("Markdown page", 1)[1]  # no raw Markdown
    assert "**" not in audit["text"] and "`code`" not in audit["text"]
    assert "text and code across a soft break." in audit["text"]
    assert '<img src=x onerror="window.__xss=1">' in audit["text"]  # raw HTML is shown as text
    assert "__xss=2" not in audit["text"]  # JSX the page renders as an element is not indexed at all
    origin = page.evaluate("location.origin")
    links = dict(audit["links"])
    assert set(links) == {"sync", "dots", "site"}, links  # //evil and javascript: are not links
    assert links["site"] == "https://example.com/ok"
    assert "pic" in audit["text"]  # an image is indexed as its alt text, as a reader sees it: no request made
    for name in ("sync", "dots"):
        assert links[name].startswith(origin + "/"), links[name]  # on this site, however spelled
    assert links["sync"] == origin + "/docs/sync" and links["dots"] == origin + "//evil.example/x"
    page.get_by_role("link", name="sync").click()  # a link to a sibling page file leads to that page
    page.get_by_role("heading", name="Syncing docs").wait_for()
    page.go_back()
    page.screenshot(path=str(OUTPUT / "docs-page-360.png"), full_page=True)



def test_a_long_unbroken_title_and_word_fit_a_360px_screen(demo_server, clean_db, browser) -> None:
    import concurrent.futures

    long_word = "Averyveryverylongunbrokenwidgettitlewithoutanyspaces" * 3
    page_text = f"---\ntitle: {long_word}\naudience: public\n---\n## {long_word}\nSee {long_word} here.\n"
    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # Playwright's loop runs in this thread
        pool.submit(seed_docs, clean_db, {**DOCS, "long.mdx": page_text}).result()
    page = browser.new_page(viewport={"width": 360, "height": 740})
    for path in ("/docs", "/docs/long"):  # the page list, then the page: a word wraps, nothing scrolls sideways
        page.goto(demo_server.url + path)
        page.get_by_text(long_word).first.wait_for()
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, path
    page.screenshot(path=str(OUTPUT / "docs-long-title-360.png"), full_page=True)


LONG_WORD = "Averyveryverylongunbrokenwidgettitlewithoutanyspaces" * 3
LONG_URL = "https://docs.example.com/" + "a/very/long/path/segment/without-breaks_" * 4 + "?query=" + "x" * 80
RTL_SENTENCE = "مرحبا بك في التوثيق."  # Arabic: "welcome to the docs."
ODD_ANSWER = (
    f"Here is {LONG_WORD} [1].\n\nSee {LONG_URL} and [the link {LONG_WORD}]({LONG_URL}).\n\n"
    f"Use `{'inline_code_span_' * 8}` inline.\n\n```python\nvery_long_code_line = '{'x' * 200}'\n```\n\n"
    f"| Column one | Column two | Column three | Column four | Column five |\n|---|---|---|---|---|\n"
    f"| {LONG_WORD[:60]} | value | value | value | value |\n\n{RTL_SENTENCE}\n\nEmoji: {'🎉' * 40} done.\n"
)

# Inside the widget: what sticks out of the log sideways, and where the Arabic paragraph's text lies.
ODD_LAYOUT = """() => {
  const root = document.querySelector('docs-chat').shadowRoot;
  const log = root.querySelector('.log'), pre = root.querySelector('.assistant pre');
  const box = log.getBoundingClientRect();
  // A code block and a table scroll sideways inside their own box: only the box itself must fit.
  const wide = [...log.querySelectorAll('*')].filter(e => !e.closest('pre, .table') || e.matches('pre, .table')).filter(e => {
    const r = e.getBoundingClientRect(); return r.width && (r.right > box.right + 0.5 || r.left < box.left - 0.5);
  }).map(e => e.tagName + ' ' + e.textContent.slice(0, 30));
  const rect = (node, start, end) => { const range = document.createRange(); range.setStart(node, start);
    range.setEnd(node, end); return range.getBoundingClientRect(); };
  const rtl = (p) => { const text = p.firstChild, n = text.length, inner = p.getBoundingClientRect();
    return {first: rect(text, 0, 1).left, stop: rect(text, n - 1, n).left,
            gapRight: inner.right - parseFloat(getComputedStyle(p).paddingRight) - rect(text, 0, n).right}; };
  return {page: document.documentElement.scrollWidth, log: [log.scrollWidth, log.clientWidth], wide: wide,
          pre: [pre.scrollWidth, pre.clientWidth],
          table: [...root.querySelectorAll('.assistant table tr')].map(tr => [...tr.children].map(c => c.tagName)),
          answer: rtl([...root.querySelectorAll('.summary p')].find(p => p.textContent.startsWith('مرحبا'))),
          question: rtl([...root.querySelectorAll('.msg.user')].pop())};
}"""


@pytest.fixture
def odd_answer_server(fake_gemini, clean_db, start_server, monkeypatch):
    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "100")
    long_page = f"---\ntitle: {LONG_WORD}\naudience: public\n---\nEmbed the widget with one script tag.\n"
    seed_docs(clean_db, {**DOCS, "long.mdx": long_page})
    fake_gemini.answer_parts = [ODD_ANSWER]
    return start_server()


@pytest.mark.parametrize(("width", "scheme"), [(360, "dark"), (1280, "light")])
def test_an_odd_answer_fits_the_panel_and_arabic_reads_right_to_left(odd_answer_server, browser, width, scheme) -> None:
    """Long words, URLs and code, a Markdown table, emoji: the panel never scrolls sideways (the
    fenced code and the table scroll in their own box); an Arabic paragraph or question is laid out right to left."""
    context = browser.new_context(viewport={"width": width, "height": 800}, color_scheme=scheme)
    page = context.new_page()
    page.goto(odd_answer_server.url + "/")
    widget(page).get_by_role("button", name="Ask the documentation").click()
    ask(page, RTL_SENTENCE + " How do I embed the widget with a script tag?")
    assert LONG_WORD in widget(page).locator(".assistant .guides a").all_text_contents()
    layout = page.evaluate(ODD_LAYOUT)
    assert layout["page"] <= width and layout["log"][0] <= layout["log"][1] and layout["wide"] == [], layout
    assert layout["pre"][0] > layout["pre"][1], layout  # the code line scrolls inside its block
    assert layout["table"] == [["TH"] * 5, ["TD"] * 5], layout  # a quoted table is drawn as one
    for side in ("answer", "question"):  # right-aligned; the full stop to the left of the first word
        assert layout[side]["stop"] < layout[side]["first"] and layout[side]["gapRight"] < 2, (side, layout)
    page.screenshot(path=str(OUTPUT / f"widget-{width}-{scheme}-odd-answer.png"))
    context.close()


def test_a_code_link_without_a_template_shows_the_lines_it_names(
    code_without_link, clean_db, db_env, start_server, browser  # noqa: F811
) -> None:
    """/code/<path>#L8-L23 (a code source without `link`): the synced file, those lines marked and in view."""
    import concurrent.futures

    from tests.test_feedback import _sync_sources

    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # Playwright's loop runs in this thread
        pool.submit(_sync_sources).result()
    server = start_server()
    page = browser.new_page(viewport={"width": 360, "height": 740})
    page.goto(server.url + "/code/app/limits.py#L8-L23")
    page.wait_for_function("() => document.querySelectorAll('tr.hl').length === 16")
    assert page.locator("tr.hl").first.get_attribute("id") == "L8"
    assert "class PostgresLimitsStorage" in "".join(page.locator("tr.hl").all_text_contents())
    top, scrolled, room = page.evaluate("[document.getElementById('L8').getBoundingClientRect().top, window.scrollY,"
                                        " document.documentElement.scrollHeight - innerHeight]")
    assert scrolled > 0 and 0 <= top and (top < 60 or scrolled >= room - 1), (top, scrolled, room)  # as far as it goes
    page.screenshot(path=str(OUTPUT / "code-page-360.png"))


SHOTS = Path("/tmp/h/homeweb/shots")  # also kept for a person to look at, when the folder exists


@pytest.fixture
def greeting_server(monkeypatch, clean_db, start_server):
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "100")
    monkeypatch.setenv("SITE_NAME", "Example Docs")
    monkeypatch.setenv("WIDGET_GREETING", "Hi! Ask me anything about Example Docs.")
    monkeypatch.setenv("WIDGET_EXAMPLES", "How do I embed the widget with a script tag? | How do I run a sync?")
    seed_docs(clean_db, DOCS)
    return start_server()


@pytest.mark.parametrize(("width", "scheme"), [(360, "light"), (1280, "dark")])
def test_the_empty_chat_greets_and_offers_example_questions(greeting_server, browser, width, scheme) -> None:
    context = browser.new_context(viewport={"width": width, "height": 760}, color_scheme=scheme)
    page = context.new_page()
    page.goto(greeting_server.url + "/")
    widget(page).get_by_role("button", name="Ask the documentation").click()
    intro = widget(page).locator(".intro")
    intro.wait_for()
    assert widget(page).locator("header h2").text_content() == "Ask Example Docs"
    assert intro.locator(".greeting").text_content() == "Hi! Ask me anything about Example Docs."
    examples = intro.get_by_role("button")
    assert examples.all_text_contents() == ["How do I embed the widget with a script tag?", "How do I run a sync?"]
    if SHOTS.is_dir():
        page.screenshot(path=str(SHOTS / f"widget-intro-{width}-{scheme}.png"))

    examples.first.click()  # asks it
    wait_until_answered(page)
    assert intro.count() == 0
    assert widget(page).locator(".user").text_content() == "How do I embed the widget with a script tag?"
    assert widget(page).locator(".assistant .guides a").first.text_content() == "Chat widget"

    # Cleared, the chat is empty again: the greeting is back.
    widget(page).get_by_role("button", name="Clear Chat").click()
    widget(page).get_by_role("button", name="Delete").click()
    widget(page).locator(".intro .greeting").wait_for()
    context.close()


def test_data_attributes_win_over_the_settings_and_stay_text(greeting_server, browser) -> None:
    host = (
        "<!doctype html><meta charset=utf-8><title>host</title><p>A docs site.</p>"
        '<script src="/docs/chat/widget.js" data-title="Helper &lt;b&gt;bold&lt;/b&gt;" '
        'data-greeting="Hello &lt;img src=x onerror=window.__xss=1&gt;" '
        'data-examples="First? | &lt;b&gt;Second&lt;/b&gt;, with a comma? |  " defer></script>'
    )
    context = browser.new_context(viewport={"width": 1280, "height": 760})
    page = context.new_page()
    page.route(greeting_server.url + "/host", lambda route: route.fulfill(body=host, content_type="text/html"))
    page.goto(greeting_server.url + "/host")
    widget(page).get_by_role("button", name="Ask the documentation").click()
    intro = widget(page).locator(".intro")
    intro.wait_for()
    assert widget(page).locator("header h2").text_content() == "Helper <b>bold</b>"
    assert intro.locator(".greeting").text_content() == "Hello <img src=x onerror=window.__xss=1>"
    assert intro.get_by_role("button").all_text_contents() == ["First?", "<b>Second</b>, with a comma?"]
    assert widget(page).locator(".intro img, header b").count() == 0
    assert page.evaluate("window.__xss") is None
    context.close()


THEMED_HOST = (
    "<!doctype html><meta charset=utf-8><title>themed</title>"
    "<style>docs-chat { --dc-accent: #d6336c; --dc-accent-fg: #ffffff; }"
    "@media (prefers-color-scheme: dark) { docs-chat { --dc-accent: #f783ac; --dc-accent-fg: #1a0510; } }"
    "docs-chat::part(launcher) { border-radius: 8px; } docs-chat::part(panel) { border-radius: 4px; }"
    "docs-chat::part(example) { border-style: dashed; }</style>"
    "<p>A themed docs site, as docs/guides/widget.mdx shows it.</p>"
    '<script src="/docs/chat/widget.js" data-examples="How do I run a sync?" defer></script>'
)


@pytest.mark.parametrize(("width", "scheme", "accent"), [(360, "light", "rgb(214, 51, 108)"),
                                                         (1280, "dark", "rgb(247, 131, 172)")])
def test_the_guides_theming_example_recolours_and_reshapes_the_widget(
    greeting_server, browser, width, scheme, accent
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 760}, color_scheme=scheme)
    page = context.new_page()
    page.route(greeting_server.url + "/themed", lambda route: route.fulfill(body=THEMED_HOST, content_type="text/html"))
    page.goto(greeting_server.url + "/themed")
    launcher = widget(page).get_by_role("button", name="Ask the documentation")
    assert launcher.evaluate("el => getComputedStyle(el).backgroundColor") == accent
    assert launcher.evaluate("el => getComputedStyle(el).borderTopLeftRadius") == "8px"
    if SHOTS.is_dir():
        page.screenshot(path=str(SHOTS / f"widget-themed-launcher-{width}-{scheme}.png"))
    launcher.click()
    example = widget(page).locator(".example")
    example.wait_for()
    assert example.evaluate("el => getComputedStyle(el).borderTopStyle") == "dashed"
    assert widget(page).locator(".send").evaluate("el => getComputedStyle(el).backgroundColor") == accent
    assert widget(page).locator(".panel").evaluate("el => getComputedStyle(el).borderTopLeftRadius") == "4px"
    if SHOTS.is_dir():
        page.screenshot(path=str(SHOTS / f"widget-themed-{width}-{scheme}.png"))
    context.close()
