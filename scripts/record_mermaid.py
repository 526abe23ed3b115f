"""Records what Mermaid draws of the diagrams of tests/data/mintlify-mermaid's pages: each
```mermaid fence (Mintlify renders it with @mintlify/components 1.0.19's `<Mermaid chart>`, which
calls mermaid 11.15.0's render in the browser) rendered by that mermaid in headless Chromium, and a
marker (`zz…`) shown when it is in the innerText of the SVG drawn. Writes
tests/data/mintlify-mermaid.shown.json, which tests/test_mintlify_mermaid.py compares docschat's
chunks to. Mermaid needs a DOM: it cannot run in the page reader's V8.

    mkdir /tmp/mermaid && cd /tmp/mermaid && npm install mermaid@11.15.0
    .venv/bin/python scripts/record_mermaid.py /tmp/mermaid/node_modules
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

SITE = Path(__file__).resolve().parent.parent / "tests" / "data" / "mintlify-mermaid"
RECORDED = SITE.parent / "mintlify-mermaid.shown.json"
MARKER = re.compile(r"zz[a-z0-9]+")
FENCE = re.compile(r"^```mermaid[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
RENDER = """async (charts) => {
  mermaid.initialize({startOnLoad: false, fontFamily: 'inherit', theme: 'default'})
  const shown = []
  for (const [i, chart] of charts.entries()) {
    const {svg} = await mermaid.render('chart' + i, chart)
    const box = document.createElement('div')
    box.innerHTML = svg
    document.body.appendChild(box)
    shown.push(box.innerText)
  }
  return shown
}"""


def main(node_modules: Path) -> None:
    page_text = "\n".join(path.read_text() for path in sorted(SITE.glob("*.mdx")))
    charts = FENCE.findall(page_text)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        page = browser.new_page()
        page.set_content("<!doctype html><body></body>")
        page.add_script_tag(path=str(node_modules / "mermaid" / "dist" / "mermaid.min.js"))
        shown = page.evaluate(RENDER, charts)
        browser.close()
    version = json.loads((node_modules / "mermaid" / "package.json").read_text())["version"]
    words = set(MARKER.findall(" ".join(shown)))
    markers = sorted(set(MARKER.findall("".join(charts))))
    assert not [m for m in markers for n in markers if m != n and m in n], "a marker inside another"
    record = {"renderer": f"mermaid {version} in Chromium, innerText of the SVG drawn",
              "shown": [m for m in markers if m in words], "hidden": [m for m in markers if m not in words]}
    RECORDED.write_text(json.dumps(record, indent=1) + "\n")
    print(f"{len(charts)} diagrams: {record}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
