"""Records what Mintlify's published rendering packages show of `<CodeBlock>`
(tests/data/mintlify-codeblock/codeblock.mdx: a `<CodeBlock language filename>` whose child is a
template literal, one without a file name, and OpenHands' run-the-example snippet, whose templates use
the snippet's prop `${path_to_script}`). The page is rendered by scripts/record_mintlify_site.mjs
(Mintlify's compiler, its snippet import resolution, and @mintlify/components) and loaded in headless
Chromium, every tab panel opened; the article's innerText, line by line. Writes
tests/data/mintlify-codeblock.shown.json, which tests/test_mintlify_codeblock.py compares docschat's
chunks to.

Install the packages as scripts/record_mintlify_site.py says, then:

    .venv/bin/python scripts/record_mintlify_codeblock.py /tmp/mint/node_modules
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright
from record_mintlify_site import OPEN_EVERYTHING, SHOWN, rendered_site

SITE = Path(__file__).resolve().parent.parent / "tests" / "data" / "mintlify-codeblock"
RECORDED = SITE.parent / "mintlify-codeblock.shown.json"


def main(node_modules: Path) -> None:
    with tempfile.TemporaryDirectory() as out:
        rendered = rendered_site(node_modules, SITE, out)
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
            page = browser.new_page()
            page.goto(Path(rendered["pages"]["codeblock.mdx"]).as_uri())
            page.evaluate(OPEN_EVERYTHING)
            shown = page.evaluate(SHOWN)
            browser.close()
    versions = ", ".join(f"{package} {version}" for package, version in rendered["versions"].items())
    record = {"renderer": f"{versions}; Chromium innerText of the article, every tab panel opened",
              "not_the_hosted_renderer": "the component mapping is scripts/record_mintlify_site.mjs's "
                                         "(the hosted client is not published)",
              "lines": [line for line in shown.splitlines() if line.strip()]}
    RECORDED.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(record['lines'])} lines recorded in {RECORDED}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
