"""Records what Mintlify's published rendering packages show of three shapes of Pipecat's docs
(github.com/pipecat-ai/docs at 1393c9d; tests/data/mintlify-pipecat/shapes.mdx): an `<Update>` whose
`label` is JSX (an `<Icon>` and a `<span>`, as its examples page writes every entry), a component
exported by name from an MDX snippet (`import { CommunityMaintained } from "/snippets/….mdx"`, on 55
pages), and a `.jsx` snippet's component that renders a table of its props (`<TransportTable
rows={methods()} />`). The page is rendered by scripts/record_mintlify_site.mjs (Mintlify's compiler,
its snippet import resolution, and @mintlify/components) and loaded in headless Chromium, every tab
panel and expandable opened; the article's innerText, line by line. Writes
tests/data/mintlify-pipecat.shown.json, which tests/test_mintlify_pipecat.py compares docschat's
chunks to.

Install the packages as scripts/record_mintlify_site.py says, then:

    .venv/bin/python scripts/record_mintlify_pipecat.py /tmp/mint/node_modules
"""

from __future__ import annotations

import sys
from pathlib import Path

from record_mintlify_site import record_article

if __name__ == "__main__":
    record_article(Path(sys.argv[1]), "mintlify-pipecat", "shapes.mdx")
