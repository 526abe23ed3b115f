"""Records what Chromium shows of the `css-*` differential probes: their HTML (written by
`PROBE_HTML=dir node scripts/record_probes.mjs`, as micromark or @mdx-js/mdx renders them) loaded
in headless Chromium, a marker shown when it is in `document.body.innerText` (or an image's alt).
Updates those probes in tests/data/markdown-probes/recorded.json.

    PROBE_HTML=/tmp/probe-html NODE_MODULES=/tmp/x/node_modules node scripts/record_probes.mjs
    python scripts/record_probes_innertext.py /tmp/probe-html
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

RECORDED = Path(__file__).parent.parent / "tests" / "data" / "markdown-probes" / "recorded.json"
MARKER = re.compile(r"zz[a-z0-9]+")
SHOWN = "document.body.innerText + ' ' + [...document.images].map((i) => i.alt).join(' ')"


def main(folder: Path) -> None:
    recorded = json.loads(RECORDED.read_text())
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        page = browser.new_page()
        for html in sorted(folder.glob("css-*.html")):
            name = html.name.removesuffix(".html")
            page.goto(html.as_uri())
            shown = set(MARKER.findall(page.evaluate(SHOWN)))
            markers = sorted(set(MARKER.findall((RECORDED.parent / name).read_text())))
            recorded[name] = {"renderer": recorded[name]["renderer"] + ", Chromium innerText",
                              "shown": [m for m in markers if m in shown], "hidden": [m for m in markers if m not in shown]}
        browser.close()
    RECORDED.write_text(json.dumps(recorded, indent=1) + "\n")
    print(f"{len(list(folder.glob('css-*.html')))} probes recorded with Chromium")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
