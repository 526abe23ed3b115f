"""What docschat shows of three shapes of Pipecat's Mintlify docs, against what Mintlify's renderer
shows (tests/data/mintlify-pipecat.shown.json, recorded by scripts/record_mintlify_pipecat.py):
an `<Update>` whose `label` is JSX (every entry of Pipecat's examples page), a component a snippet
exports by name (`CommunityMaintained`, on 55 pages), and a `.jsx` snippet's table component
(`<TransportTable rows={methods()} />`, its prop evaluated in the page's ESM). docschat showed none
of the three at first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.compose import compose_files

DATA = Path(__file__).parent / "data"
SITE = DATA / "mintlify-pipecat"
RECORDED = json.loads((DATA / "mintlify-pipecat.shown.json").read_text())["lines"]
# The page's title (a chunk's title), the anchor links' zero-width spaces, and an expandable's
# button, whose words are the site's chrome ("Show properties": docschat shows the title alone).
NOT_TEXT = {"Pipecat's shapes", "\u200b", "Show properties"}
# Mintlify writes a field's type and default without a space (`floatdefault"0.2"`), a table's cells
# with tabs: compared as docschat's words.
FIELD_LINES = {'VADParamsdefault"VADParams()"': "VADParams default: VADParams()", 'floatdefault"0.2"': "float default: 0.2"}


def _composed():
    files = {str(path.relative_to(SITE)): path.read_text() for path in SITE.rglob("*") if path.is_file()}
    return compose_files(files, Settings())


def _shown_text() -> str:
    text = " ".join(chunk.text for chunk in _composed().chunks)
    return " ".join(text.replace("**", "").replace("`", "").replace("](https://github.com/Gandr-AI)", "]")
                    .replace("](https://github.com/Gandr-AI/gandr-pipecat)", "]").replace("[", "").replace("]", "").split())


def test_an_update_label_written_as_jsx_shows_its_text() -> None:
    examples = next(chunk.text for chunk in _composed().chunks if chunk.text.startswith("## Examples"))
    assert "Zzquickstart Zzgetting Started" in examples
    assert "PSTN Zzwarm Transfer Telephony" in examples


def test_a_component_a_snippet_exports_is_rendered_on_its_props() -> None:
    composed = _composed()
    opening = composed.chunks[0].text
    assert opening.startswith("**Community-maintained integration.** This service is built and maintained by [Zzgandr]")
    assert "Pipecat does not test or officially support it." in opening
    assert [name for _, name, _ in composed.unknown_components] == []


def test_the_lines_mintlify_shows_are_shown() -> None:
    shown = _shown_text()
    # A table's row (cells apart by tabs in Mintlify's innerText) is a Markdown table's row in docschat's text.
    missing = [line for line in RECORDED if line not in NOT_TEXT and " ".join(FIELD_LINES.get(
        line, f"| {' | '.join(line.split(chr(9)))} |" if "\t" in line else line).split()) not in shown]
    assert missing == []


def test_a_jsx_component_the_reader_cannot_render_is_reported() -> None:
    """`<TransportTable rows={methods()} />` is rendered (the prop evaluated in the page's ESM); where
    the interpreter stops (a method it does not know), nothing of what it renders is indexed, and
    compose reports the component, as it reports a snippet's it cannot render."""
    files = {str(path.relative_to(SITE)): path.read_text() for path in SITE.rglob("*") if path.is_file()}
    files["shapes.mdx"] = files["shapes.mdx"].replace("rows={methods()}", "rows={methods().toSorted()}")
    composed = compose_files(files, Settings())
    assert [name for _, name, _ in composed.unknown_components] == ["TransportTable"]
    assert "startBot" not in " ".join(chunk.text for chunk in composed.chunks)


@pytest.mark.parametrize("esm", [
    'export const CommunityMaintained = ({ maintainer }) => { while (true) {} };',  # a loop: not evaluated
    'export const CommunityMaintained = ({ maintainer }) => <Unbound>{maintainer}</Unbound>;',  # a name nobody binds
])
def test_a_snippet_component_the_reader_cannot_render_is_reported(esm: str) -> None:
    files = {str(path.relative_to(SITE)): path.read_text() for path in SITE.rglob("*") if path.is_file()}
    files["snippets/community-maintained.mdx"] = esm + "\n"
    composed = compose_files(files, Settings())
    assert [name for _, name, _ in composed.unknown_components] == ["CommunityMaintained"]
