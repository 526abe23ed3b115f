"""What a visitor of the demo sees (issue 45, item 6), in Debian's Chromium: the demo's own docs,
the real offline model, the widget. Each answer is read from the widget's shadow root as shown, and
a screenshot of each is written to test-output/visitor-*.png for a person to look at."""

from __future__ import annotations

import pytest

from tests.test_demo_answers import FACTS, OFF_TOPIC, demo_docs  # noqa: F401 - the fixture
from tests.test_widget_browser import CHROMIUM, OUTPUT, ask, browser, widget  # noqa: F401 - the fixture

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)"),
]

# A question about docschat the docs do not answer: refused, or answered naming what they lack.
NOT_IN_THE_DOCS = "Does docschat support SAML single sign-on for the admin console?"


def _open(chromium, url: str):
    context = chromium.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.goto(url + "/")
    widget(page).get_by_role("button", name="Ask the documentation").click()
    return context, page


def _last_answer(page) -> tuple[list[str], str]:
    answer = widget(page).locator(".assistant").last
    return answer.locator(".guides a").all_text_contents(), answer.locator(".summary").inner_text()


def test_a_visitor_sees_each_answer_with_its_fact(demo_docs, start_server, browser) -> None:  # noqa: F811
    server = start_server()
    OUTPUT.mkdir(exist_ok=True)
    for number, (question, facts) in enumerate(FACTS.items(), 1):
        context, page = _open(browser, server.url)
        ask(page, question)
        guides, shown = _last_answer(page)
        page.screenshot(path=str(OUTPUT / f"visitor-{number}.png"))
        assert guides, question
        for fact in facts:  # as shown: Markdown rendered, so `**Chat history**` reads "Chat history"
            assert fact.replace("**", "") in shown, (question, fact, shown)
        context.close()

    # A question that stands alone, after an unrelated one: the same answer as in a fresh session.
    context, page = _open(browser, server.url)
    ask(page, "How do I connect Claude Desktop to docschat?")
    ask(page, "Is my IP address stored?")
    guides, shown = _last_answer(page)
    page.screenshot(path=str(OUTPUT / "visitor-after-history.png"))
    assert "Raw IP addresses are never stored or logged" in shown, shown
    context.close()

    context, page = _open(browser, server.url)
    ask(page, OFF_TOPIC)
    guides, shown = _last_answer(page)
    page.screenshot(path=str(OUTPUT / "visitor-off-topic.png"))
    assert guides == [] and "doesn't cover" in shown, shown

    ask(page, NOT_IN_THE_DOCS)
    guides, shown = _last_answer(page)
    page.screenshot(path=str(OUTPUT / "visitor-not-in-the-docs.png"))
    assert "doesn't cover" in shown or "do not mention" in shown or "does not mention" in shown, shown
    context.close()
