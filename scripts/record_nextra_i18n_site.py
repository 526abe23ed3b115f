"""Records where the real Nextra 4 build of tests/data/site-nav/nextra-i18n (Next.js's `i18n` with the
locales `en` and `de`, each locale's pages in `content/<locale>/`) publishes each page and the
breadcrumb its theme shows there (Chromium's innerText of `.nextra-breadcrumb`, split by line).
Writes tests/data/site-nav/nextra-i18n.built.json, which tests/test_site_nextra.py compares to.

    mkdir /tmp/nxi && cp -r tests/data/site-nav/nextra-i18n/. /tmp/nxi/ && cd /tmp/nxi && npm install
    (cd /tmp/nxi && node node_modules/next/dist/bin/next build)
    .venv/bin/python scripts/record_nextra_i18n_site.py /tmp/nxi
"""

from __future__ import annotations

import json
import shutil
import sys
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from playwright.sync_api import sync_playwright

SITE = Path(__file__).parent.parent / "tests" / "data" / "site-nav" / "nextra-i18n"
RECORDED = SITE.parent / "nextra-i18n.built.json"


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def main(project: Path) -> None:
    out = project / "out"
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(out)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    root = f"http://127.0.0.1:{server.server_address[1]}"
    routes: dict[str, list[str]] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), headless=True, args=["--no-sandbox"])
        page = browser.new_page()
        page.route(lambda url: not url.startswith(root), lambda route: route.abort())  # no network
        for html in sorted(out.rglob("*.html")):
            if html.name == "404.html":
                continue
            page.goto(f"{root}/{html.relative_to(out).as_posix()}")
            crumbs = page.evaluate("() => (document.querySelector('.nextra-breadcrumb') || {innerText: ''}).innerText")
            routes["/" + html.relative_to(out).as_posix().removesuffix(".html")] = [c for c in crumbs.split("\n") if c.strip()]
        browser.close()
    server.shutdown()
    nextra = json.loads((project / "node_modules" / "nextra" / "package.json").read_text())["version"]
    record = {"renderer": f"nextra {nextra} `next build` (static export); breadcrumb: Chromium innerText", "routes": routes}
    RECORDED.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(routes)} routes recorded in {RECORDED}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
