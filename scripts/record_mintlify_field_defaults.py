"""Records what Mintlify's published rendering packages show of a field's `default`
(tests/data/mintlify-field-defaults/fields.mdx: `<ParamField>`/`<ResponseField>` with a `default`
of each kind an MDX attribute holds). The page is rendered by scripts/record_mintlify_site.mjs
(Mintlify's compiler and @mintlify/components, its ParamField → Property mapping) and loaded in
headless Chromium; for each field, the innerText of its pills (`field-info-pill`: the type, then
"default" and the value). Writes tests/data/mintlify-field-defaults.shown.json, which
tests/test_mintlify_field_defaults.py compares docschat's chunks to.

Install the packages as scripts/record_mintlify_site.py says, then:

    .venv/bin/python scripts/record_mintlify_field_defaults.py /tmp/mint/node_modules
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright
from record_mintlify_site import rendered_site

SITE = Path(__file__).resolve().parent.parent / "tests" / "data" / "mintlify-field-defaults"
RECORDED = SITE.parent / "mintlify-field-defaults.shown.json"
PILLS = """() => Object.fromEntries([...document.querySelectorAll('.field')].map((field) => [
  field.querySelector('[data-component-part=field-name]').innerText,
  [...field.querySelectorAll('[data-component-part=field-info-pill]')].map((pill) => pill.innerText)]))"""


def main(node_modules: Path) -> None:
    with tempfile.TemporaryDirectory() as out:
        rendered = rendered_site(node_modules, SITE, out)
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
            page = browser.new_page()
            page.goto(Path(rendered["pages"]["fields.mdx"]).as_uri())
            pills = page.evaluate(PILLS)
            browser.close()
    versions = ", ".join(f"{package} {version}" for package, version in rendered["versions"].items())
    record = {"renderer": f"{versions}; Chromium innerText of each field's pills",
              "not_the_hosted_renderer": "the ParamField/ResponseField → Property mapping is "
                                         "scripts/record_mintlify_site.mjs's (the hosted client is not published)",
              "fields": pills}
    RECORDED.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(pills)} fields recorded in {RECORDED}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
