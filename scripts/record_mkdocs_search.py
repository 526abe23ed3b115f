"""Records which pages the real MkDocs build of tests/data/site-nav/mkdocs-exclude-search keeps in
its search index: the site is built with MkDocs 1.6 (Material, its search plugin, and
mkdocs-exclude-search, which removes records from `search/search_index.json` after the build),
and each source page counted searchable when a record of its location (or one of its sections) is
left. Writes tests/data/site-nav/mkdocs-exclude-search.search.json, which
tests/test_mkdocs_exclude_search.py compares docschat's pages to (a page the site leaves out of its
search is left out of the assistant: docs/guides/sources.mdx).

MkDocs is not a docschat dependency: install it in a throwaway venv.

    python3 -m venv /tmp/mkdocs && /tmp/mkdocs/bin/pip install mkdocs==1.6.1 mkdocs-material==9.8.2 \\
        mkdocs-exclude-search==0.6.7
    .venv/bin/python scripts/record_mkdocs_search.py /tmp/mkdocs/bin/mkdocs
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from record_mkdocs_site import mkdocs_build

SITE = Path(__file__).parent.parent / "tests" / "data" / "site-nav" / "mkdocs-exclude-search"
PACKAGES = ("mkdocs", "mkdocs-material", "mkdocs-exclude-search")


def main(mkdocs: Path) -> None:
    code = ("import importlib.metadata as m\n"
            f"print(', '.join(f'{{p}} {{m.version(p)}}' for p in {PACKAGES!r}))")
    versions = subprocess.run([str(mkdocs.parent / "python"), "-c", code], check=True, capture_output=True,
                              text=True).stdout.strip()
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / "site"
        mkdocs_build(mkdocs, SITE, out)
        records = json.loads((out / "search" / "search_index.json").read_text())["docs"]
        locations = {record["location"].partition("#")[0] for record in records}
        pages = {}
        for source in sorted((SITE / "docs").rglob("*.md")):
            page = source.relative_to(SITE / "docs").as_posix()
            location = re.sub(r"(^|/)index/$", r"\1", page.removesuffix(".md") + "/")  # use_directory_urls
            pages[f"docs/{page}"] = {"built": (out / location / "index.html").is_file(),
                                     "searchable": location in locations}
    recorded = SITE.parent / "mkdocs-exclude-search.search.json"
    recorded.write_text(json.dumps({"renderer": f"{versions}; search/search_index.json after the build",
                                    "pages": pages}, indent=1) + "\n")
    print(f"{len(pages)} pages recorded in {recorded}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
