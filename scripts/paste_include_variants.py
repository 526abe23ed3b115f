"""Paste the files a tiangolo-style MkDocs site includes, as a measurement aid (not docschat's reading).

Typer, FastAPI and SQLModel write `{* docs_src/x/tutorial001_py310.py hl[3] *}` on a line of its own;
their `markdown_include_variants` extension (with `mdx_include`) shows that file there as a Python
code block, in a tab, with its other variants in a closed "Other versions and variants" box.
docschat does not run these extensions: it reads the line as a paragraph. This script replaces
each such line of `docs/**/*.md` with a ```python block of the named file (relative to the
repository's root, as the extensions read it; the variants and line highlights left out), so a
sync of the result shows what answers would be if the code were read. Run it in a throwaway
clone, then commit there and sync that clone:

    git clone <site> /tmp/site-pasted && cd /tmp/site-pasted
    python <docschat>/scripts/paste_include_variants.py && git commit -qam "paste includes"
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

INCLUDE = re.compile(r"^(?P<indent>[ \t]*)\{\*\s+(?P<path>\S+)(?:\s+[^*\n]*)?\s*\*\}[ \t]*$", re.M)


def paste(root: Path) -> tuple[int, int]:
    """Lines replaced and lines naming a file the repository lacks (left as they are)."""
    pasted = missing = 0
    for page in sorted((root / "docs").rglob("*.md")):
        text = page.read_text(encoding="utf-8")

        def code(match: re.Match[str]) -> str:
            nonlocal pasted, missing
            source = root / match["path"]
            if not source.is_file():
                missing += 1
                return match[0]
            pasted += 1
            body = source.read_text(encoding="utf-8").rstrip("\n")
            return f"{match['indent']}```python\n{body}\n{match['indent']}```"

        changed = INCLUDE.sub(code, text)
        if changed != text:
            page.write_text(changed, encoding="utf-8")
    return pasted, missing


if __name__ == "__main__":
    done, absent = paste(Path(sys.argv[1] if len(sys.argv) > 1 else "."))
    print(f"{done} includes pasted, {absent} name a missing file")
