"""Records what the real Docusaurus build of tests/data/docusaurus-components shows: the site's own
components that take their children apart (typeorm's `DatabaseTabs`, which renders each
`<DatabaseTab>` child's children under the database's name, read from a constants module) and
marker components that render nothing. The site is built with Docusaurus 3 (`docusaurus build`),
each doc loaded in headless Chromium after React hydrated, every tab panel opened (a click shows
it), and its `<article>`'s innerText recorded (its table of contents left out). Writes
tests/data/docusaurus-components.shown.json, which tests/test_docusaurus_components.py compares
docschat's chunks to.

Docusaurus is not a docschat dependency: install it in a throwaway folder.

    mkdir /tmp/docu && cd /tmp/docu && npm install @docusaurus/core@3 @docusaurus/preset-classic@3 react@18 react-dom@18
    .venv/bin/python scripts/record_docusaurus_components_site.py /tmp/docu/node_modules
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from record_docusaurus_admonitions_site import docusaurus_version, hydrated_pages
from record_docusaurus_site import OPEN_EVERYTHING

SITE = Path(__file__).parent.parent / "tests" / "data" / "docusaurus-components"
RECORDED = SITE.parent / "docusaurus-components.shown.json"
SHOWN = """() => {
  const article = document.querySelector('article')
  article.querySelectorAll('.theme-doc-toc-mobile').forEach((toc) => toc.remove()) // "On this page"
  return article.innerText
}"""


def main(node_modules: Path) -> None:
    version = docusaurus_version(node_modules)
    pages: dict[str, object] = {}
    sources = sorted((SITE / "docs").rglob("*.md*"))
    for source, page in hydrated_pages(SITE, node_modules, "components-site",
                                       [(source, f"docs/{source.stem}") for source in sources]):
        page.evaluate(OPEN_EVERYTHING)
        pages[source.relative_to(SITE).as_posix()] = page.evaluate(SHOWN)
    record = {"renderer": f"Docusaurus {version}; Chromium innerText of the doc's <article> (its mobile table of "
                          "contents left out), every tab panel opened",
              "pages": pages}
    RECORDED.write_text(json.dumps(record, indent=1) + "\n")
    print(f"{len(pages)} docs recorded in {RECORDED}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
