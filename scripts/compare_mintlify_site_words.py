"""Compares, word for word, what docschat indexes of each page of a real Mintlify site with what
Mintlify's published packages show of it (design/site-navigation.md reports runs on trigger.dev,
openlit and dify's docs). Shown: Chromium's innerText of the page's article as
scripts/record_mintlify_site.mjs renders it, every tab and `<details>` opened, a space put after each
element so that inline neighbours (pills, labels) do not glue into one word. Indexed: the page's
title and its chunks' text from `compose --json`, link targets and fence info strings left out.
Prints, per page and in total, the words indexed and not shown and the words shown and not indexed.

    cd /tmp/out && node scripts/record_mintlify_site.mjs /tmp/mint/node_modules SITE /tmp/out > rendered.json
    docschat compose --repo REPO --branch HEAD --docs-dir DIR --json > composed.jsonl
    .venv/bin/python scripts/compare_mintlify_site_words.py composed.jsonl rendered.json [page prefix]
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from collections import Counter, defaultdict
from pathlib import Path

from playwright.sync_api import sync_playwright

# A word: Latin letters, or one Han or kana character (Japanese and Chinese put no space between words).
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]{2,}|[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")
LINK_TARGET = re.compile(r"\]\([^)\s]*(?:\s+\"[^\"]*\")?\)")
FENCE_INFO = re.compile(r"^ *(`{3,}|~{3,}).*$", re.MULTILINE)
OPEN_EVERYTHING = """() => {
  document.querySelectorAll('[role=tabpanel]').forEach((panel) => {
    panel.classList.remove('hidden'); panel.removeAttribute('hidden'); panel.removeAttribute('aria-hidden') })
  document.querySelectorAll('details').forEach((details) => { details.open = true })
  // Not inside code: the highlighter splits a token into spans (`project-re` `f`).
  document.querySelectorAll('article *:not(pre, pre *)').forEach((element) => element.after(' '))
}"""


def _words(text: str) -> Counter[str]:
    return Counter(word.lower() for word in WORD.findall(text))


def _indexed(rows: list[dict[str, object]]) -> str:
    texts = [str(rows[0]["title"])] + [str(row["text"]) for row in rows]
    return FENCE_INFO.sub("", LINK_TARGET.sub("]", "\n".join(texts)))


def main(composed: Path, rendered: Path, prefix: str = "") -> None:
    chunks: dict[str, list[dict[str, object]]] = defaultdict(list)
    for line in composed.read_text().splitlines():
        row = json.loads(line)
        if "page" in row:
            chunks[str(row["page"])].append(row)
    html = json.loads(rendered.read_text().strip().splitlines()[-1])["pages"]
    extra_total: Counter[str] = Counter()
    missing_total: Counter[str] = Counter()
    extra_pages: Counter[str] = Counter()
    missing_pages: Counter[str] = Counter()
    indexed_total = shown_total = compared = 0
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), headless=True,
                                             args=["--no-sandbox"])
        page = browser.new_page()
        page.route("http*://**", lambda route: route.abort())
        for name, rows in sorted(chunks.items()):
            if not name.startswith(prefix):
                continue
            if html.get(name) is None:
                print(f"{name}: indexed, not rendered")
                continue
            page.goto(Path(html[name]).as_uri())
            page.evaluate(OPEN_EVERYTHING)
            shown = _words(page.evaluate("document.querySelector('article').innerText"))
            indexed = _words(_indexed(rows))
            extra = Counter({w: n for w, n in indexed.items() if w not in shown})
            missing = Counter({w: n for w, n in shown.items() if w not in indexed})
            compared += 1
            indexed_total += sum(indexed.values())
            shown_total += sum(shown.values())
            extra_total.update(extra)
            missing_total.update(missing)
            extra_pages.update(extra.keys())
            missing_pages.update(missing.keys())
            print(f"{name}: {sum(indexed.values())} words indexed, {sum(shown.values())} shown; "
                  f"indexed not shown {sum(extra.values())} {[w for w, _ in extra.most_common(8)]}; "
                  f"shown not indexed {sum(missing.values())} {[w for w, _ in missing.most_common(8)]}")
        browser.close()
    print(f"total: {compared} pages, {indexed_total} words indexed, {shown_total} shown; "
          f"{sum(extra_total.values())} indexed not shown, {sum(missing_total.values())} shown not indexed")
    print("indexed not shown (word: pages):", extra_pages.most_common(30))
    print("shown not indexed (word: pages):", missing_pages.most_common(30))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else "")
