"""Records what the real Nextra 4 build of tests/data/site-nav/nextra shows of each page: the page's
`<article>` (the MDX content the theme renders, without its sidebar, table of contents and footer)
read by headless Chromium's innerText once React hydrated, every tab panel, `<details>` and file
tree folder opened (what a click shows counts as shown). Writes
tests/data/site-nav/nextra.shown.json: per page its shown text, and its markers (`zz…`) shown and
hidden, which tests/test_nextra_shown.py compares docschat's chunks to.

    mkdir /tmp/nx && cp -r tests/data/site-nav/nextra/. /tmp/nx/ && cd /tmp/nx && npm install
    (cd /tmp/nx && node node_modules/next/dist/bin/next build > /tmp/nextra-build.log 2>&1)
    node scripts/record_nextra_site.mjs tests/data/site-nav/nextra /tmp/nx/node_modules /tmp/nextra-build.log \\
      > tests/data/site-nav/nextra.recorded.json
    .venv/bin/python scripts/record_nextra_html.py /tmp/nx

The fixture's package.json pins zod 4.1.13 (an npm `overrides`): with zod 4.6, nextra 4.6.1's
schemas reject every layout ("expected nonoptional, received undefined at children"), the failure
session 36's builds met in prerendering.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from playwright.sync_api import sync_playwright

SITE = Path(__file__).parent.parent / "tests" / "data" / "site-nav" / "nextra"
RECORDED = SITE.parent / "nextra.shown.json"
ROUTES = json.loads((SITE.parent / "nextra.recorded.json").read_text())
MARKER = re.compile(r"zz[a-z0-9]+")
# Tabs are Headless UI's: a closed panel is kept in the page, `hidden`; a closed file tree folder
# renders no children until its button is clicked; `<details>` open on a click.
OPEN_EVERYTHING = """async () => {
  document.querySelectorAll('[role=tabpanel][hidden]').forEach((panel) => { panel.removeAttribute('hidden'); panel.style.display = '' })
  document.querySelectorAll('details').forEach((details) => { details.open = true })
  for (let round = 0; round < 10; round++) {
    const closed = [...document.querySelectorAll('.nextra-filetree button[aria-expanded=false], .nextra-filetree li > button')]
      .filter((button) => !button.nextElementSibling && !button.dataset.opened)
    if (!closed.length) break
    for (const button of closed) { button.dataset.opened = '1'; button.click() }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  document.querySelectorAll('details > :not(summary)').forEach((body) => { body.style.display = 'block'; body.style.height = 'auto' })
}"""
# The theme's <main data-pagefind-body> holds the page's MDX content alone (its breadcrumb, "Copy page"
# button and pagination stand beside it in the <article>).
SHOWN = "document.querySelector('main').innerText"
# Mermaid draws a diagram, measuring it first out of view: drawn once its labels are in <main>'s text.
DRAWN = """() => {
  const labels = [...document.querySelectorAll('main svg[aria-roledescription] .nodeLabel')]
  return labels.length > 0 && labels.every((label) => label.textContent.trim() && document.querySelector('main').innerText.includes(label.textContent.trim()))
}"""


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def main(project: Path) -> None:
    out = project / "out"
    nextra = json.loads((project / "node_modules" / "nextra" / "package.json").read_text())["version"]
    next_version = json.loads((project / "node_modules" / "next" / "package.json").read_text())["version"]
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(out)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    root = f"http://127.0.0.1:{server.server_address[1]}"
    pages: dict[str, object] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), headless=True, args=["--no-sandbox"])
        page = browser.new_page()
        page.route(lambda url: not url.startswith(root), lambda route: route.abort())  # no network
        for name, recorded in sorted(ROUTES["pages"].items()):
            route = recorded["route"]
            html = out / (route.strip("/") + ".html" if route != "/" else "index.html")
            if route not in ROUTES["next_build_routes"] or not html.exists():
                continue
            page.goto(f"{root}/{html.relative_to(out).as_posix()}")
            page.wait_for_load_state("networkidle")
            page.evaluate(OPEN_EVERYTHING)
            page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
            if "```mermaid" in (SITE / name).read_text():  # a diagram Nextra's Mermaid draws once in view
                page.wait_for_function(DRAWN)
            text = page.evaluate(f"() => {SHOWN}")
            source = (SITE / name).read_text()
            markers = sorted(set(MARKER.findall(source)))
            shown = set(MARKER.findall(text))
            pages[name] = {"route": route, "text": text, "shown": [m for m in markers if m in shown],
                           "hidden": [m for m in markers if m not in shown]}
        browser.close()
    server.shutdown()
    record = {"renderer": f"nextra {nextra}, nextra-theme-docs, Next.js {next_version} (`next build`, static export); "
                          "Chromium innerText of the page's <main>, tabs, details and file tree folders opened, "
                          "mermaid diagrams drawn",
              "pages": pages}
    RECORDED.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(pages)} pages recorded in {RECORDED}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
