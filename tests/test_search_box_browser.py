"""The widget's search view in a real headless Chromium: Ctrl-K, results as you type, arrow keys and
Enter, "Ask the docs", the empty and error states, 360 px, and hostile titles, snippets and URLs."""

from __future__ import annotations

import json

import pytest

from tests.helpers import seed_docs
from tests.test_search_box import HOSTILE, HOSTILE_TITLE, PAGES, SECRET
from tests.test_widget_browser import CHROMIUM, OUTPUT, browser, widget  # noqa: F401 - the fixture

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)"),
]

BASE = "https://docs.example.com"  # DOCS_BASE_URL: where result links lead (answered by page.route)

# What the search view drew, from inside the shadow root.
VIEW = """
() => {
  const root = document.querySelector('docs-chat').shadowRoot;
  const all = [...root.querySelectorAll('.search *')];
  const items = [...root.querySelectorAll('.results li')];
  return {
    open: !root.querySelector('.search').hidden,
    focused: root.activeElement ? root.activeElement.getAttribute('aria-label') : null,
    status: root.querySelector('.search-status').textContent,
    error: root.querySelector('.search-status').classList.contains('error'),
    titles: items.map(li => (li.querySelector('.r-title') || li).textContent),
    marks: [...root.querySelectorAll('.results mark')].map(m => m.textContent),
    selected: items.map(li => li.getAttribute('aria-selected')),
    hrefs: [...root.querySelectorAll('.search [href]')].map(a => a.getAttribute('href')),
    handlers: all.flatMap(el => [...el.attributes].map(a => a.name).filter(n => n.startsWith('on'))),
    active: root.querySelectorAll('.search img, .search svg, .search iframe, .search script').length,
    box: (() => { const r = root.querySelector('.search-box').getBoundingClientRect(); return [r.left, r.right]; })(),
    width: document.documentElement.scrollWidth,
    xss: window.__xss === undefined ? null : window.__xss,
  };
}
"""


@pytest.fixture
def search_server(monkeypatch, clean_db, start_server):
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "100")
    monkeypatch.setenv("DOCS_BASE_URL", BASE)
    seed_docs(clean_db, {**PAGES, **HOSTILE})
    return start_server()


def _open(browser, server, width: int, height: int):  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    searches: list[str] = []
    page.on("request", lambda r: searches.append(r.url) if "/docs/search" in r.url else None)
    page.route(BASE + "/**", lambda route: route.fulfill(body="<title>landed</title>landed", content_type="text/html"))
    page.goto(server.url + "/")
    widget(page).get_by_role("button", name="Ask the documentation").wait_for()
    return context, page, searches


def _type(page, text: str) -> None:
    box = widget(page).get_by_label("Search the docs", exact=True).and_(widget(page).locator("input"))
    box.fill(text)


def _view(page) -> dict:
    return page.evaluate(VIEW)


def _wait_status(page, fragment: str) -> dict:
    page.wait_for_function(
        "f => document.querySelector('docs-chat').shadowRoot.querySelector('.search-status').textContent.includes(f)",
        arg=fragment)
    return _view(page)


def test_ctrl_k_results_as_you_type_arrows_and_enter(search_server, browser) -> None:  # noqa: F811
    OUTPUT.mkdir(exist_ok=True)
    context, page, searches = _open(browser, search_server, 1280, 800)
    page.keyboard.press("Control+k")
    view = _view(page)
    assert view["open"] and view["focused"] == "Search the docs" and "Type to search" in view["status"]
    _type(page, "e")  # one letter: answered without a request
    _type(page, "embe")
    view = _wait_status(page, "result")
    assert view["titles"][0] == "Embedding the widget" and view["titles"][-1] == "Ask the docs: “embe”"
    assert view["marks"] and all(m.lower().startswith("embe") for m in view["marks"]), view["marks"]
    assert view["selected"][0] == "true"
    assert [u for u in searches if "q=e&" in u] == []  # the one-letter query never left the page
    page.screenshot(path=str(OUTPUT / "search-desktop-results.png"))

    page.keyboard.press("ArrowDown")
    assert _view(page)["selected"][1] == "true"
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")  # wraps to the last: "Ask the docs"
    assert _view(page)["selected"][-1] == "true"
    page.keyboard.press("ArrowDown")  # back to the first
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url == BASE + "/docs/widget#embed-the-script"

    page.goto(search_server.url + "/")
    page.keyboard.press("Control+k")
    page.keyboard.press("Escape")
    assert not _view(page)["open"]
    context.close()


def test_empty_state_and_ask_the_docs(search_server, browser) -> None:  # noqa: F811
    context, page, _ = _open(browser, search_server, 1280, 800)
    page.keyboard.press("Control+k")
    _type(page, "zzqxj flurbo")
    view = _wait_status(page, "No pages match")
    assert view["titles"] == ["Ask the docs: “zzqxj flurbo”"]
    page.screenshot(path=str(OUTPUT / "search-desktop-empty.png"))
    # The one option, "Ask the docs", hands the query to the chat.
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    question = widget(page).locator(".msg.user").first
    question.wait_for()
    assert question.text_content() == "zzqxj flurbo"
    assert not _view(page)["open"]
    widget(page).locator(".assistant .summary-block, .assistant .notice").first.wait_for(state="visible")
    context.close()


def test_error_state_says_what_went_wrong(search_server, browser) -> None:  # noqa: F811
    context, page, _ = _open(browser, search_server, 1280, 800)
    # The server answers as it does when its database is down.
    page.route("**/docs/search?*", lambda route: route.fulfill(
        status=503, content_type="application/json", headers={"Retry-After": "5"},
        body=json.dumps({"error": "database_unavailable",
                         "detail": "the database is unreachable right now; please try again in a few seconds"})))
    page.keyboard.press("Control+k")
    _type(page, "embed")
    view = _wait_status(page, "unreachable")
    assert view["error"] and view["titles"] == ["Ask the docs: “embed”"]
    page.screenshot(path=str(OUTPUT / "search-desktop-error.png"))
    # The network itself fails: a sentence, not a stack trace.
    page.unroute("**/docs/search?*")
    page.route("**/docs/search?*", lambda route: route.abort())
    _type(page, "embed widget")
    assert _wait_status(page, "unavailable")["error"]
    context.close()


def test_search_at_360px(search_server, browser) -> None:  # noqa: F811
    context, page, _ = _open(browser, search_server, 360, 740)
    # On a phone there is no keyboard shortcut: the chat panel's Search button opens it.
    widget(page).get_by_role("button", name="Ask the documentation").click()
    widget(page).get_by_role("button", name="Search the docs").click()
    _type(page, "deploying vercel")
    view = _wait_status(page, "result")
    assert view["titles"][0] == "Deployment"
    assert view["width"] <= 360 and view["box"][0] >= 0 and view["box"][1] <= 360, view
    page.screenshot(path=str(OUTPUT / "search-360-results.png"))
    _type(page, "zzqxj flurbo")
    _wait_status(page, "No pages match")
    page.screenshot(path=str(OUTPUT / "search-360-empty.png"))
    # "No pages match “<query>”" quotes the query: one long unbroken word wraps, never cut off.
    _type(page, "Zzqxjflurbo" * 18)
    _wait_status(page, "No pages match “" + "Zzqxjflurbo" * 18)
    status = page.evaluate("() => { const s = document.querySelector('docs-chat').shadowRoot"
                           ".querySelector('.search-status'); return [s.scrollWidth, s.clientWidth]; }")
    assert status[0] <= status[1], status
    page.screenshot(path=str(OUTPUT / "search-360-empty-long-word.png"))
    page.route("**/docs/search?*", lambda route: route.fulfill(
        status=429, content_type="application/json", headers={"Retry-After": "42"},
        body=json.dumps({"error": "rate_limited",
                         "detail": "Too many searches from this address; please try again in 42 seconds."})))
    _type(page, "deploying vercel")
    assert _wait_status(page, "42 seconds")["error"]
    page.screenshot(path=str(OUTPUT / "search-360-error.png"))
    page.unroute("**/docs/search?*")
    widget(page).get_by_role("button", name="Close search").click()
    assert not _view(page)["open"]
    context.close()


def test_hostile_titles_snippets_and_urls_stay_text(search_server, browser) -> None:  # noqa: F811
    context, page, _ = _open(browser, search_server, 1280, 800)
    page.keyboard.press("Control+k")
    _type(page, "hostil")
    view = _wait_status(page, "result")
    assert view["titles"][0] == HOSTILE_TITLE  # drawn as text
    assert "forged" not in view["marks"]
    page.screenshot(path=str(OUTPUT / "search-desktop-hostile.png"))
    # An answer no server of ours sends: script URLs, markup, offsets past the end. Nothing runs.
    hostile = {"query": "x", "mode": "keyword", "degraded": None, "results": [
        {"title": "<img src=x onerror=window.__xss=1>", "url": "javascript:window.__xss=1", "source": "docs",
         "score": 1, "sections": [{"heading": "h", "path": ["<svg onload=window.__xss=1>", "<b>x</b>"],
                                   "url": "JaVaScRiPt:window.__xss=1", "snippet": "<img src=x onerror=window.__xss=1>",
                                   "highlights": [[0, 4], [2, 99], [-1, 3]], "score": 1}]},
        {"title": "<img src=y onerror=window.__xss=2>\u202egpj.exe", "url": BASE + "/docs/ok", "source": "docs", "score": 1,
         "sections": [{"heading": "h", "path": ["t", "<img src=z onerror=window.__xss=3>"],
                       "url": "//evil.example/x", "snippet": "<script>window.__xss=4</script>",
                       "highlights": [[0, 8]], "score": 1}]},
    ]}
    page.route("**/docs/search?*", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(hostile)))
    _type(page, "anything")
    view = _wait_status(page, "result")
    for x in range(0, 1280, 160):
        for y in range(0, 800, 100):
            page.mouse.move(x, y)
    view = _view(page)
    assert view["xss"] is None and view["handlers"] == [] and view["active"] == 0, view
    # The first page has no URL to open: not drawn. The second opens its page, not evil.example.
    # and a bidi override in a title is dropped: "gpj.exe" is not drawn as "exe.jpg".
    assert view["titles"] == ["<img src=y onerror=window.__xss=2>gpj.exe", "Ask the docs: “anything”"]
    assert view["hrefs"] == [BASE + "/docs/ok"]
    assert view["marks"] == ["<script>"]
    context.close()


def test_no_internal_page_reaches_the_search_view(search_server, browser) -> None:  # noqa: F811
    context, page, _ = _open(browser, search_server, 1280, 800)
    page.keyboard.press("Control+k")
    for query in (SECRET[:6], "team runbook", "undeclared"):
        _type(page, query)
        view = _wait_status(page, "Ask the docs instead")
        assert SECRET not in json.dumps(view).replace(query, "")
    context.close()
