"""A Docusaurus site whose docs plugin builds a folder beside the site's (`path: '../docs'`) but
whose docs root serves a released version from inside the site's folder (`versions.json`,
`versioned_docs/`) is read from the repository's root: the folder beside it holds only the
unreleased version (`/docs/next/`), which docschat leaves out as it does any unreleased version.
Jest's repository is laid out so (website/docusaurus.config.mjs, docs/ beside it, 30.4 served from
website/versioned_docs: its real build, design/answer-eval.md's sixteenth stranger); before, the
source failed at `DOCS_DIR=.`, telling the user to move the docs into the site's folder. The folder
beside the site, read alone, still fails, now naming the site's folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.compose import DocsSource, compose_corpus
from app.corpus.git_source import GitSourceError
from tests.helpers import commit_all, make_docs_repo, write_files

CONFIG = "export default {presets: [['classic', {docs: {path: '../docs'}}]]};\n"


def _repo(tmp_path: Path, versions: str | None) -> Path:
    repo = make_docs_repo(tmp_path / "d", {"intro.md": "# Intro\n\nzznext, the unreleased version.\n"})
    files = {"website/docusaurus.config.js": CONFIG,
             "website/versioned_docs/version-1.0/intro.md": "# Intro\n\nzzreleased, version 1.0.\n"}
    if versions is not None:
        files["website/versions.json"] = versions
    write_files(repo, files)
    commit_all(repo, "site")
    return repo


def test_a_root_source_reads_the_site_when_its_root_serves_a_released_version(tmp_path: Path) -> None:
    result = compose_corpus(DocsSource(_repo(tmp_path, '["1.0"]'), "main", "."), Settings())
    assert [page.path for page in result.pages] == ["website/versioned_docs/version-1.0/intro.md"]
    assert {chunk.href for chunk in result.chunks} == {"/docs/docs/intro"}  # the settings' url_prefix /docs, then the route
    assert "zznext" not in " ".join(chunk.text for chunk in result.chunks)


def test_the_unreleased_folder_alone_names_the_sites_folder(tmp_path: Path) -> None:
    with pytest.raises(GitSourceError, match=r"'docs' holds the unreleased docs .* set the source's folder to 'website'"):
        compose_corpus(DocsSource(_repo(tmp_path, '["1.0"]'), "main", "docs"), Settings())


@pytest.mark.parametrize("versions", [None, "[]", "not json"])
def test_without_a_released_version_the_folder_beside_is_what_the_site_serves(tmp_path: Path, versions: str | None) -> None:
    with pytest.raises(GitSourceError, match=r"'\.' holds the docs the site 'website/docusaurus.config.js' builds"):
        compose_corpus(DocsSource(_repo(tmp_path, versions), "main", "."), Settings())
