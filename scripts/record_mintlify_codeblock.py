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

import sys
from pathlib import Path

from record_mintlify_site import record_article

if __name__ == "__main__":
    record_article(Path(sys.argv[1]), "mintlify-codeblock", "codeblock.mdx")
