"""Checks the page reader's shortcut for OpenAPI descriptions (app/corpus/js/src/reader.js,
PLAIN_LINE: a one-line description with no Markdown, HTML, math or `@` character is taken as its
own text, not read by micromark): every string of the given specs that the shortcut takes is read
by micromark here too, and must give one text block equal to itself. Prints the count checked and
each string that differs; exits 1 when one does.

    .venv/bin/python scripts/check_openapi_plain_descriptions.py spec.yaml [spec.json …]
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import yaml

from app.corpus.reader import read_markdown

# Kept equal to PLAIN_LINE in app/corpus/js/src/reader.js: a letter or `(`, then none of these.
REST = re.compile(r"[^\\`*_{}\[\]<>#|~$&@\n\r\x01]*")


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in strings(item)]
    return []


def plain(value: str) -> bool:
    return bool(value) and (value[0].isalpha() or value[0] == "(") and REST.fullmatch(value[1:]) is not None


def main(paths: list[str]) -> int:
    checked, differ = 0, []
    for path in paths:
        text = Path(path).read_text()
        try:
            spec = json.loads(text)
        except ValueError:
            spec = yaml.safe_load(text)
        for value in {s.strip() for s in strings(spec)}:
            if not plain(value):
                continue
            checked += 1
            blocks = read_markdown(value, mdx=False, math=True).blocks
            if [(b.kind, b.text) for b in blocks] != [("text", value)]:
                differ.append((value, blocks))
    print(f"{checked} one-line descriptions checked, {len(differ)} differ")
    for value, blocks in differ:
        print(f"  {value!r}: {blocks}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
