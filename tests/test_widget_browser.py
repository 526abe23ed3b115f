"""The widget and the demo page in a real headless Chromium (Debian's), driven by Playwright."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import seed_docs
from tests.test_chat import DOCS

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
OUTPUT = Path(__file__).resolve().parent.parent / "test-output"

pytestmark = [
    pytest.mark.browser,
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
    page.wait_for_function(
        "() => !document.querySelector('docs-chat').shadowRoot.querySelector('.stop').offsetParent"
    )
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
        box = widget(page).get_by_label("Your question")
        box.fill(question)
        box.press("Enter")
        page.wait_for_function(
            "() => !document.querySelector('docs-chat').shadowRoot.querySelector('.stop').offsetParent"
        )
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


def test_markdown_from_answers_is_never_executed(demo_server, browser) -> None:
    page = browser.new_page()
    page.goto(demo_server.url + "/")
    page.wait_for_function("() => customElements.get('docs-chat')")
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


def test_demo_finds_the_widget_page_with_the_offline_model(clean_db, monkeypatch) -> None:
    """The demo question over the project's own docs/, with the model the demo uses."""
    import asyncio

    from app import PROJECT_ROOT
    from app.config import get_settings
    from app.corpus.compose import DocsSource
    from app.db.pool import create_pool
    from app.embeddings.local import local_model_installed
    from app.search.retrieve import build_retriever
    from app.sync import sync_corpus

    if not (PROJECT_ROOT / ".git").exists():
        pytest.skip("the project's docs are read through git; no .git here")
    monkeypatch.setenv("EMBEDDING_PROVIDER", "local" if local_model_installed() else "none")
    get_settings.cache_clear()

    async def go() -> list[str]:
        pool = await create_pool(clean_db)
        try:
            settings = get_settings()
            retriever = build_retriever(pool, settings)
            await sync_corpus(pool, DocsSource(PROJECT_ROOT, "HEAD", "docs"), settings,
                              retriever.embedder.provider if retriever.embedder else None)
            result = await retriever.retrieve("how do I embed the widget?")
            return [p.page for p in result.pages]
        finally:
            await pool.close()

    pages = asyncio.run(go())
    assert pages[0] == "guides/widget.mdx", pages

