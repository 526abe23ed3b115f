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
import shutil
import subprocess
import sys
import tempfile
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from playwright.sync_api import sync_playwright
from record_docusaurus_site import OPEN_EVERYTHING

SITE = Path(__file__).parent.parent / "tests" / "data" / "docusaurus-components"
RECORDED = SITE.parent / "docusaurus-components.shown.json"
SHOWN = """() => {
  const article = document.querySelector('article')
  article.querySelectorAll('.theme-doc-toc-mobile').forEach((toc) => toc.remove()) // "On this page"
  return article.innerText
}"""


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def main(node_modules: Path) -> None:
    version = json.loads((node_modules / "@docusaurus" / "core" / "package.json").read_text())["version"]
    pages: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as work:
        site, out = Path(work) / "site", Path(work) / "build"
        shutil.copytree(SITE, site)
        (site / "node_modules").symlink_to(node_modules)
        (site / "package.json").write_text('{"name": "components-site", "private": true}\n')
        build = subprocess.run(["node", str(node_modules / "@docusaurus" / "core" / "bin" / "docusaurus.mjs"), "build",
                                "--out-dir", str(out)], cwd=site, capture_output=True, text=True)
        if build.returncode:
            sys.exit(f"docusaurus build failed:\n{build.stdout}\n{build.stderr}")
        # Served over HTTP, as a site is: its scripts hydrate the page (the tabs are React's).
        server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(out)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        root = f"http://127.0.0.1:{server.server_address[1]}"
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
            page = browser.new_page()
            for source in sorted((SITE / "docs").rglob("*.md*")):
                name = source.relative_to(SITE).as_posix()
                page.goto(f"{root}/docs/{source.stem}/")
                # React hydrated (Docusaurus then sets it): panels opened before would close again.
                page.wait_for_selector("html[data-has-hydrated=true]", state="attached")
                page.evaluate(OPEN_EVERYTHING)
                pages[name] = page.evaluate(SHOWN)
            browser.close()
        server.shutdown()
    record = {"renderer": f"Docusaurus {version}; Chromium innerText of the doc's <article> (its mobile table of "
                          "contents left out), every tab panel opened",
              "pages": pages}
    RECORDED.write_text(json.dumps(record, indent=1) + "\n")
    print(f"{len(pages)} docs recorded in {RECORDED}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
