"""Hostile docs and hostile answers in the widget, in a real Chromium: nothing runs, no bad link is drawn.

The answer comes from the fake Gemini over the real stream (fresh answers), is stored, and is drawn
again from GET /docs/chat after a reload (restored history). A hostile page name reaches the widget
as a Relevant Guide's title and URL.
"""

from __future__ import annotations


import pytest

from tests.helpers import seed_docs
from tests.test_widget_browser import ARGS, CHROMIUM, browser, widget  # noqa: F401 - the fixture

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)"),
]

HOSTILE_NAME = "a onmouseover=window.__xss=1 style=position:fixed;inset:0 .mdx"
HOSTILE_PAGE = (
    "---\npublic: true\n---\n## Embed the hostile widget\nEmbed the hostile widget guide: "
    "[x](http://example.com/[1]) and [y](//evil.example) and [z](/\\evil.example).\n"
)

# Known vectors: attribute breaking, javascript: in many spellings, SVG, srcdoc, HTML around Markdown.
HOSTILE_ANSWER = "\n\n".join([
    "Citation inside a URL: [x](http://example.com/[1]) and a real one [1] [2] [3].",
    "Scheme-relative and backslashes: [a](//evil.example) [b](/\\evil.example) [c](\\\\evil.example) "
    "[d](/\\/evil.example) [e](https:\\\\evil.example) [f](http:evil.example) [g](///evil.example)",
    "javascript: [j1](javascript:window.__xss=1) [j2](JaVaScRiPt:window.__xss=1) "
    "[j3](java&#x09;script:window.__xss=1) [j4](&#106;avascript:window.__xss=1) "
    "[j5](javascript%3Awindow.__xss=1) [j6](%6Aavascript:window.__xss=1) [j7](&#x6A;avascript:window.__xss=1) "
    "[j8](\u0001javascript:window.__xss=1) [j9](data:text/html,<script>window.__xss=1</script>) "
    "[j10](vbscript:window.__xss=1) [j11](javascript&colon;window.__xss=1) [j12](\u200bjavascript:window.__xss=1) "
    "[j13](jav\u0000ascript:window.__xss=1) [j14](javascript://%0Awindow.__xss=1)",
    "Attribute breaking: [q](http://example.com/\"onmouseover=\"window.__xss=1\"style=\"position:fixed;inset:0) "
    "[r](/docs/x'onfocus='window.__xss=1'autofocus=') [s](http://example.com/\"><img/src=x/onerror=window.__xss=1>)",
    "HTML: <img src=x onerror=\"window.__xss=1\"> <svg onload=window.__xss=1></svg> "
    "<svg><script>window.__xss=1</script></svg> <iframe srcdoc=\"<script>parent.__xss=1</script>\"></iframe> "
    "<a href=\"javascript:window.__xss=1\">click</a> <details open ontoggle=window.__xss=1>d</details> "
    "<math><mtext><table><mglyph><style><img src=x onerror=window.__xss=1>",
    "Markdown in HTML: <a href=\"[x](javascript:window.__xss=1)\">m</a> **<img src=x onerror=window.__xss=1>** "
    "`<img src=x onerror=window.__xss=1>` [<img src=x onerror=window.__xss=1>](http://example.com/ok) "
    "[**b**](javascript:window.__xss=1)",
    "```html\n</code></pre><img src=x onerror=window.__xss=1>\n```",
])

# Everything drawn inside the widget: hrefs, event-handler attributes, elements that can run code.
AUDIT = """
() => {
  const root = document.querySelector('docs-chat').shadowRoot;
  const all = [...root.querySelectorAll('*')];
  return {
    hrefs: [...root.querySelectorAll('[href]')].map(a => a.getAttribute('href')),
    handlers: all.flatMap(el => [...el.attributes].map(a => a.name).filter(n => n.startsWith('on'))),
    styled: all.filter(el => el.hasAttribute('style') || el.hasAttribute('srcdoc')).length,
    active: root.querySelectorAll('img, svg, iframe, script, details, math, object, embed, form input').length,
    links: [...root.querySelectorAll('.summary a')].map(a => [a.textContent, a.getAttribute('href')]),
    guides: [...root.querySelectorAll('.guides a')].map(a => [a.textContent, a.getAttribute('href')]),
    text: root.querySelector('.assistant .summary') ? root.querySelector('.assistant .summary').textContent : '',
    xss: window.__xss === undefined ? null : window.__xss,
  };
}
"""




@pytest.fixture
def hostile_server(fake_gemini, clean_db, start_server, monkeypatch):
    from tests.test_chat import DOCS

    monkeypatch.setenv("RATE_LIMIT_PER_HOUR", "100")
    fake_gemini.answer_parts = [HOSTILE_ANSWER[:400], HOSTILE_ANSWER[400:900], HOSTILE_ANSWER[900:]]
    seed_docs(clean_db, {HOSTILE_NAME: HOSTILE_PAGE, **DOCS})
    return start_server()


def _assert_harmless(page, audit: dict) -> None:
    # Sweep the pointer over the page and tab through it: hover and focus handlers would fire now.
    for x in range(0, 1280, 160):
        for y in range(0, 900, 150):
            page.mouse.move(x, y)
    for _ in range(10):
        page.keyboard.press("Tab")
    assert page.evaluate("window.__xss === undefined ? null : window.__xss") is None
    assert audit["xss"] is None
    assert audit["handlers"] == [] and audit["styled"] == 0 and audit["active"] == 0, audit
    for href in audit["hrefs"]:
        lowered = href.lower()
        assert lowered.startswith(("http://", "https://", "/")) and not lowered.startswith("//"), href
        assert "evil.example" not in lowered and "\\" not in href and "javascript" not in lowered, href
        assert '"' not in href and "<" not in href and " " not in href, href  # serialized by URL()


def test_hostile_docs_and_answers_never_run_fresh_or_restored(hostile_server, browser) -> None:  # noqa: F811
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(hostile_server.url + "/")
    widget(page).get_by_role("button", name="Ask the documentation").click()
    box = widget(page).get_by_label("Your question")
    box.fill("How do I embed the hostile widget guide?")
    box.press("Enter")
    page.wait_for_function(
        "() => { const r = document.querySelector('docs-chat').shadowRoot;"
        " return r.querySelector('.assistant .summary').textContent.includes('Markdown in HTML')"
        " && !r.querySelector('.stop').offsetParent; }"
    )
    fresh = page.evaluate(AUDIT)
    _assert_harmless(page, fresh)
    # The hostile page is a guide, drawn as text; the link whose URL holds "[1]" keeps its URL.
    assert any("onmouseover" in title for title, _ in fresh["guides"]), fresh["guides"]
    assert ["x", "http://example.com/[1]"] in fresh["links"], fresh["links"]
    assert "<img src=x onerror" in fresh["text"]  # shown as text, not made into an element
    assert any(text == "[1]" for text, _ in fresh["links"])  # a real citation became a link

    page.reload()
    widget(page).get_by_role("button", name="Ask the documentation").click()
    widget(page).locator(".assistant .summary").first.wait_for(state="visible")
    restored = page.evaluate(AUDIT)
    _assert_harmless(page, restored)
    assert restored["links"] == fresh["links"] and restored["guides"] == fresh["guides"]
    context.close()


BAD_URLS = [
    "javascript:window.__xss=1", " javascript:window.__xss=1", "JAVASCRIPT:window.__xss=1",
    "java\tscript:window.__xss=1", "java\nscript:window.__xss=1", "\u0000javascript:window.__xss=1",
    "javascript&colon;window.__xss=1", "&#106;avascript:window.__xss=1", "%6Aavascript:window.__xss=1",
    "data:text/html,<script>window.__xss=1</script>", "vbscript:msgbox(1)", "//evil.example", "/\\evil.example",
    "\\\\evil.example", "\\/evil.example", "/\t/evil.example", "https:\\\\evil.example", "http:evil.example",
    "///evil.example", "https://", "ftp://example.com/x", "blob:https://example.com/x", "  //evil.example",
    "/\u200b/evil.example", "http://example.com/\u2028", "", None,
]
GOOD_URLS = ["https://docs.example.com/guide#x", "http://127.0.0.1:8000/docs/widget", "/docs/widget#embed",
             "#section"]


def test_source_urls_are_checked_after_parsing(hostile_server, browser) -> None:  # noqa: F811
    page = browser.new_page()
    page.goto(hostile_server.url + "/")
    page.wait_for_function("() => customElements.get('docs-chat')")
    hrefs = page.evaluate(
        """([bad, good]) => {
          const el = document.querySelector('docs-chat');
          el.shadowRoot.querySelector('.launcher').click();
          const sources = [...bad, ...good].map((url, i) => ({url: url, title: 't' + i}));
          el.addAssistant(sources, sources.map((_, i) => '[' + (i + 1) + ']').join(' '));
          return [...el.shadowRoot.querySelectorAll('.assistant a')].map(a => a.getAttribute('href'));
        }""",
        [BAD_URLS, GOOD_URLS],
    )
    guides, citations = hrefs[: len(GOOD_URLS)], hrefs[len(GOOD_URLS):]
    assert guides == GOOD_URLS, hrefs
    assert citations == GOOD_URLS, hrefs  # [n] points at the n-th guide; refused ones stay text
    assert page.evaluate("window.__xss === undefined ? null : window.__xss") is None
