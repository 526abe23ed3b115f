"""What docschat shows of Mintlify's `<CodeBlock>`, against what Mintlify's renderer shows
(tests/data/mintlify-codeblock.shown.json, recorded by scripts/record_mintlify_codeblock.py).
OpenHands' docs paste a snippet into 44 SDK pages whose two `<CodeBlock>`s hold a template literal
using the snippet's prop (`uv run python ${path_to_script}`); docschat showed neither."""

from __future__ import annotations

import json
from pathlib import Path

from app.config import Settings
from app.corpus.compose import compose_files

DATA = Path(__file__).parent / "data"
SITE = DATA / "mintlify-codeblock"
RECORDED = json.loads((DATA / "mintlify-codeblock.shown.json").read_text())["lines"]
# The page's title (a chunk's title, not its text) and the copy button's tooltip (the site's chrome).
NOT_TEXT = {"Code blocks", "Copy"}


def _composed():
    files = {str(path.relative_to(SITE)): path.read_text() for path in SITE.rglob("*") if path.is_file()}
    return compose_files(files, Settings())


def test_a_code_block_shows_what_mintlify_shows() -> None:
    lines = {line.strip().removeprefix("## ") for chunk in _composed().chunks for line in chunk.text.splitlines()}
    assert [line for line in RECORDED if line not in NOT_TEXT and line not in lines] == []


def test_a_code_block_is_code_under_its_file_name_and_no_unknown_component() -> None:
    composed = _composed()
    plain = next(chunk.text for chunk in composed.chunks if chunk.text.startswith("## Plain"))
    assert plain == "## Plain\n\nzzplain.sh\n\n```bash\nuv run python zzplain.py\n```"
    assert [name for _, name, _ in composed.unknown_components] == []
