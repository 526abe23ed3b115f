"""Records what Sphinx shows for the `{ref}`, `{doc}` and `{any}` roles of tests/data/myst-xref
(or of another small MyST site given second, tests/data/myst-version-notes): the site is built
with Sphinx and myst-parser, and the text between each pair of markers (`xr01a … xr01b`) of each
built page is written to tests/data/<site>.shown.json, which tests/test_myst_xref.py (and
tests/test_myst_version_notes.py) compare docschat's chunks to.

Sphinx is not a docschat dependency: install it in a throwaway venv, not the project's.

    python3 -m venv /tmp/sphinx && /tmp/sphinx/bin/pip install sphinx myst-parser
    .venv/bin/python scripts/record_myst_xref.py /tmp/sphinx/bin/sphinx-build [tests/data/myst-version-notes]
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

SITE = Path(__file__).parent.parent / "tests" / "data" / "myst-xref"
MARKED = re.compile(r"([a-z]{2}\d\d)a(.*?)\1b", re.DOTALL)


def main(sphinx_build: Path, site: Path = SITE) -> None:
    python = sphinx_build.parent / "python"
    versions = subprocess.run(
        [str(python), "-c", "import importlib.metadata as m; "
                            "print(', '.join(f'{p} {m.version(p)}' for p in ('sphinx', 'myst-parser', 'docutils')))"],
        check=True, capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory() as out:
        build = subprocess.run([str(sphinx_build), "-q", "-b", "html", str(site), out], capture_output=True, text=True)
        if build.returncode:
            sys.exit(f"sphinx-build failed:\n{build.stderr}")
        shown: dict[str, str] = {}
        for source in sorted(site.rglob("*.md")):
            page = source.relative_to(site).with_suffix(".html")
            text = html.unescape(re.sub(r"<[^>]+>", "", (Path(out) / page).read_text()))
            shown |= {marker: " ".join(words.split()) for marker, words in MARKED.findall(text)}
    recording = {"renderer": f"{versions}; the built page's text between the markers",
                 "warnings": build.stderr.replace(f"{site}/", "").splitlines(), "shown": shown}
    target = site.parent / f"{site.name}.shown.json"
    target.write_text(json.dumps(recording, indent=1) + "\n")
    print(f"{len(shown)} roles recorded in {target}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), *(Path(arg).resolve() for arg in sys.argv[2:3]))
