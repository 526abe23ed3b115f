"""Records what the real Docusaurus build of tests/data/docusaurus-tab-blocks shows of its ```` ```js
tab ```` fences, which docusaurus-remark-plugin-tab-blocks turns into tabs labelled by language
(JavaScript, TypeScript, the site's own labels) or by a fence's `label`. The site is built with
Docusaurus 3 and the plugin (as Jest's docs add it, after npm2yarn), each page loaded in headless
Chromium after React hydrated, every tab panel opened, and the lines of its innerText recorded.
Writes tests/data/docusaurus-tab-blocks.shown.json, which tests/test_docusaurus_tab_blocks.py
compares docschat's chunks to.

    mkdir /tmp/docu && cd /tmp/docu && npm install @docusaurus/core@3 @docusaurus/preset-classic@3 \
        @docusaurus/remark-plugin-npm2yarn@3 docusaurus-remark-plugin-tab-blocks@4 react@19 react-dom@19
    .venv/bin/python scripts/record_docusaurus_tab_blocks_site.py /tmp/docu/node_modules

(Jest's website's own node_modules, installed by its lockfile, holds all of these.)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from record_docusaurus_admonitions_site import docusaurus_version, hydrated_pages
from record_docusaurus_site import OPEN_EVERYTHING

SITE = Path(__file__).parent.parent / "tests" / "data" / "docusaurus-tab-blocks"
RECORDED = SITE.parent / "docusaurus-tab-blocks.shown.json"
PAGES = {"docs/tabs.md": "docs/tabs", "docs/plain.mdx": "docs/plain"}
# The labels of each page's tabs, as the theme draws them (role=tab), in order.
TAB_LABELS = "() => Array.from(document.querySelectorAll('article [role=tab]')).map((tab) => tab.innerText.trim())"


def main(node_modules: Path) -> None:
    pages: dict[str, dict[str, list[str]]] = {}
    for source, page in hydrated_pages(SITE, node_modules, "tab-blocks-site", [(SITE / s, u) for s, u in PAGES.items()]):
        page.evaluate(OPEN_EVERYTHING)
        text = page.evaluate("() => (document.querySelector('article') || document.querySelector('main')).innerText")
        pages[source.relative_to(SITE).as_posix()] = {"lines": [line.strip() for line in text.splitlines() if line.strip()],
                                                      "tabs": page.evaluate(TAB_LABELS)}
    plugin = json.loads((node_modules / "docusaurus-remark-plugin-tab-blocks" / "package.json").read_text())["version"]
    record = {"renderer": f"Docusaurus {docusaurus_version(node_modules)}, docusaurus-remark-plugin-tab-blocks {plugin}; "
                          "Chromium innerText of the page's <article> (<main>), every tab panel opened, a line each; "
                          "the tabs' labels in order", "pages": pages}
    RECORDED.write_text(json.dumps(record, indent=1) + "\n")
    print(f"{len(pages)} pages recorded in {RECORDED}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
