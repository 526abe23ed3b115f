"""What docschat shows of a Mintlify field's `default`, against what Mintlify's renderer shows
(tests/data/mintlify-field-defaults.shown.json, recorded by scripts/record_mintlify_field_defaults.py).
unkey's docs write `default={false}` on three CLI flags; docschat showed nothing of it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from app.config import Settings
from app.corpus.compose import compose_files

DATA = Path(__file__).parent / "data"
SITE = DATA / "mintlify-field-defaults"
RECORDED = json.loads((DATA / "mintlify-field-defaults.shown.json").read_text())["fields"]
# Known only when the page runs (`Date.now()`): Mintlify shows the time it was built.
RUN_TIME_VALUES = {"zzcall"}


def _shown_defaults() -> dict[str, str | None]:
    files = {p.name: p.read_text() for p in SITE.iterdir()}
    text = "\n".join(c.text for c in compose_files(files, Settings()).chunks)
    found: dict[str, str | None] = {}
    for name in RECORDED:
        line = next(line for line in text.splitlines() if line.startswith(name + " "))
        found[name] = line.split(" default: ", 1)[1] if " default: " in line else None
    return found


def _recorded_default(pills: list[str]) -> str | None:
    value = next((pill.removeprefix("default") for pill in pills if pill.startswith("default")), None)
    # A string shows in quotes on the site; docschat keeps its words without them.
    return value[1:-1] if value and re.fullmatch(r'"[^"]*"', value) else value


def test_a_fields_default_shows_as_mintlify_shows_it() -> None:
    shown = _shown_defaults()
    expected = {name: _recorded_default(pills) for name, pills in RECORDED.items() if name not in RUN_TIME_VALUES}
    assert {name: shown[name] for name in expected} == expected
    assert shown["zzfalse"] == "false" and shown["zzflat"] == '{"success":false,"limit":0}'


def test_a_default_known_only_when_the_page_runs_is_not_shown() -> None:
    assert _recorded_default(RECORDED["zzcall"]) is not None  # the site shows the build's time
    assert _shown_defaults()["zzcall"] is None
