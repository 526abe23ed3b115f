"""Records what Mintlify's published rendering packages show of the code blocks of
tests/data/mintlify-notation/notation.mdx: Shiki's notation comments (`// [!code ++]`, `focus`,
`highlight`, …) in several languages and `twoslash` blocks with cuts, flags and queries. The page is
rendered by scripts/record_mintlify_site.mjs (Mintlify's compiler, @mintlify/mdx's Shiki and
twoslash transformers, @mintlify/components) and loaded in headless Chromium; the article's
innerText. Writes tests/data/mintlify-notation.shown.json: each marker (`zz…`) shown or hidden, and
every `[!code …]`, twoslash cut, flag and query the page shows, which tests/test_mintlify_notation.py compares docschat's chunks to.

Install the packages as scripts/record_mintlify_site.py says, then:

    .venv/bin/python scripts/record_mintlify_notation.py /tmp/mint/node_modules
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from record_mintlify_site import OPEN_EVERYTHING, SHOWN, evaluated_page

SITE = Path(__file__).resolve().parent.parent / "tests" / "data" / "mintlify-notation"
RECORDED = SITE.parent / "mintlify-notation.shown.json"
MARKER = re.compile(r"zz[a-z0-9]+")
# Shiki's notation, and twoslash's cuts, flags and queries: each the page shows, as written.
NOTATION = re.compile(r"\[!code [^\]]*\]|---cut[a-z-]*---|//\s?@\w+|//\s*\^[?|^]", re.IGNORECASE)


def main(node_modules: Path) -> None:
    shown, versions = evaluated_page(node_modules, SITE, "notation.mdx", SHOWN, OPEN_EVERYTHING)
    markers = sorted(set(MARKER.findall((SITE / "notation.mdx").read_text())))
    assert not [m for m in markers for n in markers if m != n and m in n], "a marker inside another"
    words = set(MARKER.findall(shown))
    record = {"renderer": f"{versions}; Chromium innerText of the article",
              "shown": [m for m in markers if m in words], "hidden": [m for m in markers if m not in words],
              "notation": sorted(NOTATION.findall(shown))}
    RECORDED.write_text(json.dumps(record, indent=1) + "\n")
    print(f"{len(record['shown'])} shown, {len(record['hidden'])} hidden, {len(record['notation'])} notations in {RECORDED}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
