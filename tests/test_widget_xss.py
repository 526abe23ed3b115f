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
    pytest.mark.slow,
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
    "Dot segments (issue 30): [k1](/.//evil.example/x) [k2](/..//evil.example/x) [k3](/%2e%2e//evil.example/x) "
    "[k4](/docs/../..//evil.example)",
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
    hosts: [...root.querySelectorAll('[href]')].map(a => new URL(a.getAttribute('href'), document.baseURI).host),
    origin: location.origin,
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
    for href, host in zip(audit["hrefs"], audit["hosts"], strict=True):
        lowered = href.lower()
        assert lowered.startswith(("http://", "https://")), href  # drawn absolute, as the browser resolved it
        assert "evil.example" not in host and "\\" not in href and "javascript" not in lowered, href
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
    # The dot-segment spellings are this site's own (odd) paths, never the host evil.example.
    origin = fresh["origin"]
    assert ["k1", origin + "//evil.example/x"] in fresh["links"], fresh["links"]
    assert ["k4", origin + "//evil.example"] in fresh["links"], fresh["links"]
    assert "<img src=x onerror" in fresh["text"]  # shown as text, not made into an element
    assert any(text == "[1]" for text, _ in fresh["links"])  # a real citation became a link

    page.reload()
    widget(page).get_by_role("button", name="Ask the documentation").click()
    widget(page).locator(".assistant .summary").first.wait_for(state="visible")
    restored = page.evaluate(AUDIT)
    _assert_harmless(page, restored)
    assert restored["links"] == fresh["links"] and restored["guides"] == fresh["guides"]
    context.close()


# Spellings of an off-site or script link: none may be drawn as a link.
BAD_URLS = [
    "javascript:window.__xss=1", " javascript:window.__xss=1", "JAVASCRIPT:window.__xss=1", "JaVaScRiPt:window.__xss=1",
    "java\tscript:window.__xss=1", "java\nscript:window.__xss=1", "\u0000javascript:window.__xss=1",
    "javascript&colon;window.__xss=1", "&#106;avascript:window.__xss=1", "%6Aavascript:window.__xss=1",
    "data:text/html,<script>window.__xss=1</script>", "vbscript:msgbox(1)", "//evil.example", "/\\evil.example",
    "\\\\evil.example", "\\evil.example", "\\/evil.example", "/\t/evil.example", "/\n/evil.example",
    "https:\\\\evil.example", "http:evil.example", "https:evil.example", "HTTPS:evil.example", "https:/evil.example",
    "h\ttps://evil.example", "ht\ntp://evil.example", "https\r://evil.example", "///evil.example", "https://",
    "ftp://example.com/x", "blob:https://example.com/x", "  //evil.example", "/\u200b/evil.example",
    "http://example.com/\u2028", "https://docs.example.com@evil.example/", "https://user:pw@evil.example/",
    "%2F%2Fevil.example", "evil.example", "", None,
]
# Spellings that stay on this site whatever they look like: drawn, resolved to this page's origin.
ON_SITE = [
    "/.//evil.example/x", "/..//evil.example/x", "/%2e%2e//evil.example/x", "/docs/../..//evil.example",
    "/%2E%2E/%2F%2Fevil.example", "/%2f%2fevil.example", "/././/evil.example", "/docs/./.././/evil.example",
    "/%5Cevil.example", "/docs/widget#embed", "#section", "?q=1",
]
# Off-site links that read as such: spelled out as http(s)://host.
ABSOLUTE = ["https://docs.example.com/guide#x", "HTTP://Example.COM/x", "http://127.0.0.1:8000/docs/widget"]

DRAW = """([urls]) => {
  const el = document.querySelector('docs-chat');
  el.shadowRoot.querySelector('.launcher').click();
  const sources = urls.map((url, i) => ({url: url, title: 't' + i}));
  const view = el.addAssistant(sources, urls.map((u, i) => '[' + (i + 1) + '] [m' + i + '](' + u + ')').join(' '));
  const node = view.node;
  const drawn = sel => [...node.querySelectorAll(sel)].map(a => {
    const href = a.getAttribute('href');
    return {text: a.textContent, href: href, origin: new URL(href, document.baseURI).origin};
  });
  return {guides: drawn('.guides a'), summary: drawn('.summary a'), origin: location.origin,
          text: node.querySelector('.summary').textContent};
}"""


def test_every_href_resolves_on_site_or_to_a_spelled_out_url(hostile_server, browser) -> None:  # noqa: F811
    """Guides and answer links, for every spelling: refused, or drawn absolute where the browser goes."""
    page = browser.new_page()
    page.goto(hostile_server.url + "/docs")
    page.wait_for_function("() => customElements.get('docs-chat')")
    origin = page.evaluate("location.origin")

    bad = page.evaluate(DRAW, [[u for u in BAD_URLS if u is not None]])
    assert bad["guides"] == [] and bad["summary"] == [], bad  # no link at all, and no [n] citation link
    assert "m0" in bad["text"]  # a refused link keeps its label as text

    on_site = page.evaluate(DRAW, [ON_SITE])
    for drawn in (on_site["guides"], on_site["summary"]):
        assert len(drawn) == len(ON_SITE) * (2 if drawn is on_site["summary"] else 1), drawn
        for link in drawn:
            assert link["origin"] == origin and link["href"].startswith(origin + "/"), link
    guides = [link["href"] for link in on_site["guides"]]
    assert guides[0] == origin + "//evil.example/x" and guides[3] == origin + "//evil.example", guides
    assert guides[9] == origin + "/docs/widget#embed" and guides[10] == origin + "/docs#section", guides

    absolute = page.evaluate(DRAW, [ABSOLUTE])
    assert [link["href"] for link in absolute["guides"]] == [
        "https://docs.example.com/guide#x", "http://example.com/x", "http://127.0.0.1:8000/docs/widget"]
    assert page.evaluate("window.__xss === undefined ? null : window.__xss") is None


def test_relative_links_are_refused_when_the_page_base_is_elsewhere(hostile_server, browser) -> None:  # noqa: F811
    """A host page whose <base> points off-site: a relative link would leave the site, so it is not drawn.
    (Another site's page: the demo page's CSP, base-uri 'none', would ignore the <base>.)"""
    page = browser.new_page()
    host = '<!doctype html><meta charset=utf-8><title>host</title><script src="/docs/chat/widget.js" defer></script>'
    page.route(hostile_server.url + "/host", lambda route: route.fulfill(body=host, content_type="text/html"))
    page.goto(hostile_server.url + "/host")
    page.wait_for_function("() => customElements.get('docs-chat')")
    page.evaluate("() => { const b = document.createElement('base'); b.href = 'https://evil.example/'; "
                  "document.head.prepend(b); }")
    drawn = page.evaluate(DRAW, [["/docs/widget", "#x", "https://docs.example.com/ok"]])
    assert [link["href"] for link in drawn["guides"]] == ["https://docs.example.com/ok"], drawn
