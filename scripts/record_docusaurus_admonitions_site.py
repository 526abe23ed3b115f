"""Records what the real Docusaurus build of tests/data/docusaurus-admonitions shows: the site is
built with Docusaurus 3 (`docusaurus build`), each doc loaded in headless Chromium, and its
`<article>`'s innerText recorded (its table of contents left out) with the headings that stand outside an admonition box (its
sections; a heading inside a box is the box's text). One docs instance per `admonitions` option of
the docs plugin (custom keywords added, keywords replaced, `admonitions: false`). Writes
tests/data/docusaurus-admonitions.shown.json, which tests/test_docusaurus_admonition_titles.py
compares docschat's reading to. A page with markers (`marker-…`: classes/classes.mdx, Docusaurus's
components carrying a class the site's stylesheet hides) is recorded as the markers its article
shows and hides, every tab panel and `<details>` opened first (a click shows them).

Docusaurus is not a docschat dependency: install it in a throwaway folder.

    mkdir /tmp/docu && cd /tmp/docu && npm install @docusaurus/core@3 @docusaurus/preset-classic@3 react@18 react-dom@18
    .venv/bin/python scripts/record_docusaurus_admonitions_site.py /tmp/docu/node_modules
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from _shown_markers import MARKER
from playwright.sync_api import Page, sync_playwright
from record_docusaurus_site import OPEN_EVERYTHING

SITE = Path(__file__).parent.parent / "tests" / "data" / "docusaurus-admonitions"
RECORDED = SITE.parent / "docusaurus-admonitions.shown.json"
SHOWN = """() => {
  const article = document.querySelector('article')
  article.querySelectorAll('.theme-doc-toc-mobile').forEach((toc) => toc.remove()) // "On this page"
  const headings = [...article.querySelectorAll('h1, h2, h3, h4, h5, h6')]
  return {text: article.innerText,
          sections: headings.filter((h) => !h.closest('.theme-admonition')).map((h) => h.innerText.replace('\u200b', '').trim())}
}"""


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def hydrated_pages(site_dir: Path, node_modules: Path, name: str, paths: list[tuple[Path, str]]) -> Iterator[tuple[Path, Page]]:
    """Builds the Docusaurus site at `site_dir` with Docusaurus 3 (`docusaurus build`), serves the
    build over HTTP, as a site is (its stylesheets are linked from its root, its scripts hydrate the
    page: tabs are React's), and yields each (source, page) of `paths` (a source, its URL path) once
    loaded in headless Chromium and hydrated."""
    with tempfile.TemporaryDirectory() as work:
        site, out = Path(work) / "site", Path(work) / "build"
        shutil.copytree(site_dir, site)
        (site / "node_modules").symlink_to(node_modules)
        (site / "package.json").write_text(json.dumps({"name": name, "private": True}) + "\n")
        build = subprocess.run(["node", str(node_modules / "@docusaurus" / "core" / "bin" / "docusaurus.mjs"), "build",
                                "--out-dir", str(out)], cwd=site, capture_output=True, text=True)
        if build.returncode:
            sys.exit(f"docusaurus build failed:\n{build.stdout}\n{build.stderr}")
        server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(out)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        root = f"http://127.0.0.1:{server.server_address[1]}"
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
            page = browser.new_page()
            for source, url_path in paths:
                page.goto(f"{root}/{url_path}/")
                # React hydrated (Docusaurus then sets it): panels opened before would close again.
                page.wait_for_selector("html[data-has-hydrated=true]", state="attached")
                yield source, page
            browser.close()
        server.shutdown()


def docusaurus_version(node_modules: Path) -> str:
    return json.loads((node_modules / "@docusaurus" / "core" / "package.json").read_text())["version"]


def main(node_modules: Path) -> None:
    version = docusaurus_version(node_modules)
    pages: dict[str, object] = {}
    sources = sorted(SITE.rglob("*.md*"))
    for source, page in hydrated_pages(SITE, node_modules, "admonitions-site",
                                       [(source, f"{source.parent.name}/{source.stem}") for source in sources]):
        name = source.relative_to(SITE).as_posix()
        markers = sorted(set(MARKER.findall(source.read_text())))
        if not markers:
            pages[name] = page.evaluate(SHOWN)
            continue
        page.evaluate(OPEN_EVERYTHING)
        seen = set(MARKER.findall(page.evaluate("document.querySelector('article').innerText")))
        pages[name] = {"shown": [m for m in markers if m in seen], "hidden": [m for m in markers if m not in seen]}
    record = {"renderer": f"Docusaurus {version}; Chromium innerText of the doc's <article>, and its headings "
                          "outside an admonition box (.theme-admonition); for a page with markers, those its "
                          "article shows, its tab panels and details opened",
              "pages": pages}
    RECORDED.write_text(json.dumps(record, indent=1) + "\n")
    print(f"{len(pages)} docs recorded in {RECORDED}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
