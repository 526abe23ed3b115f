"""Records what the real Docusaurus build of tests/data/docusaurus-tabs shows of its Tabs: a tab is
named `label ?? value` of the Tabs' `values` prop when given (a TabItem's own `label` is then not
shown), else of the TabItem. The site is built with Docusaurus 3, each doc loaded in headless
Chromium after React hydrated, every tab panel opened, and a marker (`zz…`) recorded as shown when
it is in its `<article>`'s innerText. Writes tests/data/docusaurus-tabs.shown.json, which
tests/test_docusaurus_tabs.py compares docschat's chunks to.

    mkdir /tmp/docu && cd /tmp/docu && npm install @docusaurus/core@3 @docusaurus/preset-classic@3 react@18 react-dom@18
    .venv/bin/python scripts/record_docusaurus_tabs_site.py /tmp/docu/node_modules
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from record_docusaurus_admonitions_site import docusaurus_version, hydrated_pages
from record_docusaurus_site import OPEN_EVERYTHING

SITE = Path(__file__).parent.parent / "tests" / "data" / "docusaurus-tabs"
RECORDED = SITE.parent / "docusaurus-tabs.shown.json"
MARKER = re.compile(r"zz[a-z0-9]+")


def main(node_modules: Path) -> None:
    pages: dict[str, object] = {}
    sources = sorted((SITE / "docs").rglob("*.md*"))
    for source, page in hydrated_pages(SITE, node_modules, "tabs-site", [(source, f"docs/{source.stem}") for source in sources]):
        page.evaluate(OPEN_EVERYTHING)
        words = set(MARKER.findall(page.evaluate("() => document.querySelector('article').innerText")))
        markers = sorted(set(MARKER.findall(source.read_text())))
        pages[source.relative_to(SITE).as_posix()] = {"shown": [m for m in markers if m in words],
                                                      "hidden": [m for m in markers if m not in words]}
    record = {"renderer": f"Docusaurus {docusaurus_version(node_modules)}; Chromium innerText of the doc's <article>, "
                          "every tab panel opened", "pages": pages}
    RECORDED.write_text(json.dumps(record, indent=1) + "\n")
    print(f"{len(pages)} docs recorded in {RECORDED}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
