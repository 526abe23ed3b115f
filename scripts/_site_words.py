"""Word-for-word comparison of what docschat indexes of a site's pages with what the site's own build
shows of them (issue 46), shared by scripts/compare_*_site_words.py: each built page loaded in
headless Chromium (Debian's `chromium`, no network), `before` run first (tabs and `<details>`
opened: what a click shows counts as shown), then the innerText `shown` evaluates to split into
words and compared with the page's indexed text. Prints, per page and in total, the words indexed
and not shown (a leak, or noise) and the words shown and not indexed (a loss)."""

from __future__ import annotations

import json
import re
import shutil
import threading
from collections import Counter, defaultdict
from collections.abc import Iterable
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from playwright.sync_api import sync_playwright

# A word: Latin letters, or one Han or kana character (Japanese and Chinese put no space between words).
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]{2,}|[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")
LINK_TARGET = re.compile(r"\]\([^)\s]*(?:\s+\"[^\"]*\")?\)")
FENCE_INFO = re.compile(r"^ *(`{3,}|~{3,}).*$", re.MULTILINE)


def words(text: str) -> Counter[str]:
    return Counter(word.lower() for word in WORD.findall(text))


def composed_pages(composed: Path) -> dict[str, list[dict[str, object]]]:
    """The chunks of each page of `docschat compose --json`'s output, in order."""
    chunks: dict[str, list[dict[str, object]]] = defaultdict(list)
    for line in composed.read_text().splitlines():
        row = json.loads(line)
        if "page" in row:
            chunks[str(row["page"])].append(row)
    return chunks


def indexed_text(rows: list[dict[str, object]]) -> str:
    """A page's title and its chunks' text, link targets and fence info strings left out: the page
    shows neither (a link shows its text, a fence its code)."""
    texts = [str(rows[0]["title"])] + [str(row["text"]) for row in rows]
    return FENCE_INFO.sub("", LINK_TARGET.sub("]", "\n".join(texts)))


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def compare_pages(pages: Iterable[tuple[str, Path | None, str]], shown: str, before: str | None = None,
                  served: Path | None = None) -> None:
    """Each (page name, the HTML file its build wrote or None, the text docschat indexes of it).
    With `served` (the build's folder), the pages are loaded from it served on 127.0.0.1, as a site
    is (its stylesheets and scripts linked from its root: VitePress's), nothing else reached."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(served))) if served else None
    root = f"http://127.0.0.1:{server.server_address[1]}/" if server else ""
    if server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    extra_total: Counter[str] = Counter()
    missing_total: Counter[str] = Counter()
    extra_pages: Counter[str] = Counter()
    missing_pages: Counter[str] = Counter()
    indexed_total = shown_total = compared = 0
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), headless=True,
                                             args=["--no-sandbox"])
        page = browser.new_page()
        # The theme's CDN scripts: no network (but the build served here).
        page.route(lambda url: url.startswith("http") and not (root and url.startswith(root)), lambda route: route.abort())
        for name, html, text in pages:
            if html is None:
                print(f"{name}: indexed, not built")
                continue
            page.goto(root + html.relative_to(served).as_posix() if served else html.as_uri())
            if before:
                page.evaluate(before)
            shown_words = words(page.evaluate(shown))
            indexed = words(text)
            extra = Counter({w: n for w, n in indexed.items() if w not in shown_words})
            missing = Counter({w: n for w, n in shown_words.items() if w not in indexed})
            compared += 1
            indexed_total += sum(indexed.values())
            shown_total += sum(shown_words.values())
            extra_total.update(extra)
            missing_total.update(missing)
            extra_pages.update(extra.keys())
            missing_pages.update(missing.keys())
            print(f"{name}: {sum(indexed.values())} words indexed, {sum(shown_words.values())} shown; "
                  f"indexed not shown {sum(extra.values())} {[w for w, _ in extra.most_common(8)]}; "
                  f"shown not indexed {sum(missing.values())} {[w for w, _ in missing.most_common(8)]}")
        browser.close()
    if server:
        server.shutdown()
    print(f"total: {compared} pages, {indexed_total} words indexed, {shown_total} shown; "
          f"{sum(extra_total.values())} indexed not shown, {sum(missing_total.values())} shown not indexed")
    print("indexed not shown (word: pages):", extra_pages.most_common(30))
    print("shown not indexed (word: pages):", missing_pages.most_common(30))
