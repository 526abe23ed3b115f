"""The reading code's hash, part of every page's key (app/corpus/reading_version.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

from app.corpus import reading_version
from app.corpus.reading_version import code_digest


def _tree(root: Path) -> Path:
    for name, text in {"myst.py": "X = 1\n", "data.json": "{}", "js/reader.js": "bundle",
                       "js/src/reader.js": "source", "js/node_modules/m/index.js": "dep"}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_a_change_to_a_reading_module_or_the_bundle_changes_the_digest(tmp_path: Path) -> None:
    """A reader fixed in Python (LXD's substitutions, session 35) must read every page again once."""
    root = _tree(tmp_path / "corpus")
    before = code_digest(root)
    assert code_digest(root) == before
    for name, text in (("myst.py", "X = 2\n"), ("data.json", "[]"), ("js/reader.js", "new bundle")):
        copy = shutil.copytree(root, tmp_path / name.replace("/", "_"))
        (copy / name).write_text(text)
        assert code_digest(copy) != before, name
    moved = shutil.copytree(root, tmp_path / "moved")
    (moved / "myst.py").rename(moved / "myst2.py")
    assert code_digest(moved) != before


def test_the_bundle_sources_and_node_modules_are_not_read(tmp_path: Path) -> None:
    """The built bundle is what runs; its sources and dependencies are not installed with the package."""
    root = _tree(tmp_path / "corpus")
    before = code_digest(root)
    (root / "js/src/reader.js").write_text("edited source")
    (root / "js/node_modules/m/index.js").write_text("edited dependency")
    (root / "__pycache__").mkdir()
    (root / "__pycache__/myst.cpython-311.pyc").write_text("bytes")
    assert code_digest(root) == before


def test_the_installed_reading_version_names_the_parsers() -> None:
    version = reading_version.reading_version()
    assert version.startswith(code_digest(Path(reading_version.__file__).parent) + ";")
    assert "markdown-it-py=" in version and "docutils=" in version and "mini-racer=" in version
