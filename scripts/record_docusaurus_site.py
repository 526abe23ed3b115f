"""Records what the real Docusaurus build of tests/data/site-nav/docusaurus shows: the site is built
with Docusaurus 3 (`docusaurus build`), each built doc loaded in headless Chromium, and a marker
(`marker-…`) of a source doc counted shown when it is in the innerText of the doc's `<article>`.
What a reader opens by a click counts as shown: every tab panel and `<details>` is opened first (a
tab's text is the page's text, one click away). Writes tests/data/site-nav/docusaurus.shown.json,
which tests/test_site_navigation.py compares docschat's chunks to.

Docusaurus is not a docschat dependency: install it in a throwaway folder.

    mkdir /tmp/docu && cd /tmp/docu && npm install @docusaurus/core@3 @docusaurus/preset-classic@3 react@19 react-dom@19
    .venv/bin/python scripts/record_docusaurus_site.py /tmp/docu/node_modules
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from _shown_markers import record_pages

SITE = Path(__file__).parent.parent / "tests" / "data" / "site-nav" / "docusaurus"
RECORDED = SITE.parent / "docusaurus.shown.json"
OPEN_EVERYTHING = """() => {
  document.querySelectorAll('[role=tabpanel][hidden]').forEach((panel) => panel.removeAttribute('hidden'))
  document.querySelectorAll('details').forEach((details) => { details.open = true })
  document.querySelectorAll('details > div').forEach((body) => { body.style.display = 'block'; body.style.height = 'auto' })
}"""
SHOWN = "(document.querySelector('article') || document.body).innerText"


def _built_page(out: Path, doc: str) -> Path | None:
    """The HTML Docusaurus writes for docs/<doc>.md(x): docs/<id>/index.html, a folder's index at the folder."""
    slug = re.sub(r"(^|/)index$", "", doc)
    for candidate in (out / "docs" / slug / "index.html", out / "docs" / f"{slug}.html"):
        if candidate.is_file():
            return candidate
    return None


def main(node_modules: Path) -> None:
    version = json.loads((node_modules / "@docusaurus" / "core" / "package.json").read_text())["version"]
    with tempfile.TemporaryDirectory() as work:
        site, out = Path(work) / "site", Path(work) / "build"
        shutil.copytree(SITE, site)
        (site / "node_modules").symlink_to(node_modules)
        build = subprocess.run(["node", str(node_modules / "@docusaurus" / "core" / "bin" / "docusaurus.mjs"), "build",
                                "--out-dir", str(out)], cwd=site, capture_output=True, text=True)
        if build.returncode:
            sys.exit(f"docusaurus build failed:\n{build.stdout}\n{build.stderr}")
        sources = [(source.relative_to(SITE).as_posix(), source) for source in sorted((SITE / "docs").rglob("*.md*"))]
        pages = record_pages(sources, lambda name, _: _built_page(out, re.sub(r"\.mdx?$", "", name.removeprefix("docs/"))),
                             SHOWN, OPEN_EVERYTHING)
    record = {"renderer": f"Docusaurus {version}; Chromium innerText of the doc's <article>, tabs and details opened",
              "pages": pages}
    RECORDED.write_text(json.dumps(record, indent=1) + "\n")
    print(f"{len(pages)} docs recorded in {RECORDED}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
