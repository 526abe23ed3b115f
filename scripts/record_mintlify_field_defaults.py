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
import sys
from pathlib import Path

from record_mintlify_site import evaluated_page

SITE = Path(__file__).resolve().parent.parent / "tests" / "data" / "mintlify-field-defaults"
RECORDED = SITE.parent / "mintlify-field-defaults.shown.json"
PILLS = """() => Object.fromEntries([...document.querySelectorAll('.field')].map((field) => [
  field.querySelector('[data-component-part=field-name]').innerText,
  [...field.querySelectorAll('[data-component-part=field-info-pill]')].map((pill) => pill.innerText)]))"""


def main(node_modules: Path) -> None:
    pills, versions = evaluated_page(node_modules, SITE, "fields.mdx", PILLS)
    record = {"renderer": f"{versions}; Chromium innerText of each field's pills",
              "not_the_hosted_renderer": "the ParamField/ResponseField → Property mapping is "
                                         "scripts/record_mintlify_site.mjs's (the hosted client is not published)",
              "fields": pills}
    RECORDED.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(pills)} fields recorded in {RECORDED}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
