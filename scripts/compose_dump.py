"""Everything a compose of the shared corpora makes, as JSON, to check a change leaves it as it was.

    python scripts/compose_dump.py /tmp/before --corpus mintlify-docs claude-docs ray-docs
    (change the code)
    python scripts/compose_dump.py /tmp/after --corpus mintlify-docs claude-docs ray-docs --compare /tmp/before

Writes `<dir>/<corpus>.json`: the chunks, the pages (blocks included), the warnings, the skipped
pages, the exclusions, the unknown components and those read as hiding their children. With --compare, exits non-zero naming each
corpus whose JSON differs from the one in that folder (and the first differing line).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shutil
import sys
from pathlib import Path

from _corpus import corpus_repo


def dump(corpus: str) -> str:
    from app.config import Settings
    from app.corpus.compose import DocsSource, compose_corpus

    repo = corpus_repo(corpus)
    try:
        result = compose_corpus(DocsSource(repo, "main", "docs"), Settings())
    finally:
        shutil.rmtree(repo, ignore_errors=True)
    return json.dumps({
        "chunks": [chunk.to_dict() for chunk in result.chunks],
        "pages": [dataclasses.asdict(page) for page in result.pages],
        "warnings": result.warnings,
        "skipped": result.skipped_pages,
        "excluded": [[path, str(why)] for path, why in result.excluded],
        "unknown_components": result.unknown_components,
        # Absent before session 31: an older tree's dump has none.
        "hiding_components": getattr(result, "hiding_components", []),
        "snippets": [result.snippets_resolved, result.snippets_unresolved],
    }, indent=1, ensure_ascii=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", help="a folder for <corpus>.json")
    parser.add_argument("--corpus", nargs="+", default=["mintlify-docs", "claude-docs", "ray-docs"])
    parser.add_argument("--compare", help="a folder of an earlier dump to compare with")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    differ = []
    for corpus in args.corpus:
        text = dump(corpus)
        (out / f"{corpus}.json").write_text(text, encoding="utf-8")
        if args.compare:
            before = (Path(args.compare) / f"{corpus}.json").read_text(encoding="utf-8")
            same = before == text
            if not same:
                first = next((i for i, (a, b) in enumerate(zip(before.splitlines(), text.splitlines(), strict=False)) if a != b),
                             min(len(before.splitlines()), len(text.splitlines())))
                differ.append(corpus)
                print(json.dumps({"corpus": corpus, "same": False, "first_differing_line": first + 1}))
            else:
                print(json.dumps({"corpus": corpus, "same": True, "bytes": len(text)}))
        else:
            print(json.dumps({"corpus": corpus, "bytes": len(text)}))
    if differ:
        sys.exit(f"composed differently: {', '.join(differ)}")


if __name__ == "__main__":
    main()
