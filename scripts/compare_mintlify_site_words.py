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
import sys
from pathlib import Path

from _site_words import compare_pages, composed_pages, indexed_text

OPEN_EVERYTHING = """() => {
  document.querySelectorAll('[role=tabpanel]').forEach((panel) => {
    panel.classList.remove('hidden'); panel.removeAttribute('hidden'); panel.removeAttribute('aria-hidden') })
  document.querySelectorAll('details').forEach((details) => { details.open = true })
  // Not inside code: the highlighter splits a token into spans (`project-re` `f`).
  document.querySelectorAll('article *:not(pre, pre *)').forEach((element) => element.after(' '))
}"""


def main(composed: Path, rendered: Path, prefix: str = "") -> None:
    html = json.loads(rendered.read_text().strip().splitlines()[-1])["pages"]
    pages = [(name, Path(html[name]) if html.get(name) else None, indexed_text(rows))
             for name, rows in sorted(composed_pages(composed).items()) if name.startswith(prefix)]
    compare_pages(pages, "document.querySelector('article').innerText", OPEN_EVERYTHING)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else "")
