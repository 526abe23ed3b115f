"""Records what the real Docusaurus build of tests/data/docusaurus-npm2yarn shows of its ```` ```bash
npm2yarn ```` fences, which @docusaurus/remark-plugin-npm2yarn turns into tabs of the npm command
and its conversions (npm-to-yarn's). The site is built with Docusaurus 3 and the plugin, each page
loaded in headless Chromium after React hydrated, every tab panel opened, and the lines of its
innerText recorded. Writes tests/data/docusaurus-npm2yarn.shown.json, which
tests/test_docusaurus_npm2yarn.py compares docschat's chunks to.

    mkdir /tmp/docu && cd /tmp/docu && npm install @docusaurus/core@3 @docusaurus/preset-classic@3 \
        @docusaurus/remark-plugin-npm2yarn@3 react@18 react-dom@18
    .venv/bin/python scripts/record_docusaurus_npm2yarn_site.py /tmp/docu/node_modules
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from record_docusaurus_admonitions_site import docusaurus_version, hydrated_pages
from record_docusaurus_site import OPEN_EVERYTHING

SITE = Path(__file__).parent.parent / "tests" / "data" / "docusaurus-npm2yarn"
RECORDED = SITE.parent / "docusaurus-npm2yarn.shown.json"
PAGES = {"docs/install.md": "docs/install", "docs/mdx-page.mdx": "docs/mdx-page", "src/pages/setup.md": "setup"}


def main(node_modules: Path) -> None:
    pages: dict[str, list[str]] = {}
    for source, page in hydrated_pages(SITE, node_modules, "npm2yarn-site", [(SITE / s, u) for s, u in PAGES.items()]):
        page.evaluate(OPEN_EVERYTHING)
        text = page.evaluate("() => (document.querySelector('article') || document.querySelector('main')).innerText")
        pages[source.relative_to(SITE).as_posix()] = [line.strip() for line in text.splitlines() if line.strip()]
    plugin = json.loads((node_modules / "@docusaurus" / "remark-plugin-npm2yarn" / "package.json").read_text())["version"]
    converter = json.loads((node_modules / "npm-to-yarn" / "package.json").read_text())["version"]
    record = {"renderer": f"Docusaurus {docusaurus_version(node_modules)}, remark-plugin-npm2yarn {plugin}, "
                          f"npm-to-yarn {converter}; Chromium innerText of the page's <article> (<main>), "
                          "every tab panel opened, a line each", "pages": pages}
    RECORDED.write_text(json.dumps(record, indent=1) + "\n")
    print(f"{len(pages)} pages recorded in {RECORDED}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
