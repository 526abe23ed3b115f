"""One database, found the same way from any folder (app/home.py), and read commands that say
what is missing instead of making or reading an empty database."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.config import Settings
from app.home import find_home, user_home
from tests.helpers import docschat_in_process, seed_docs, stop_embedded_server
from tests.test_chat import DOCS

REPO = Path(__file__).resolve().parent.parent


def _no_marker_above(folder: Path) -> None:
    for parent in (folder, *folder.parents):
        if (parent / ".docschat").is_dir() or (parent / "docschat.toml").is_file():
            pytest.skip(f"{parent} holds a .docschat or docschat.toml: every folder below it is its project")


def test_the_nearest_project_upwards_is_found_as_git_finds_dot_git(tmp_path) -> None:
    _no_marker_above(tmp_path)
    outer, inner = tmp_path / "outer", tmp_path / "outer" / "inner"
    deep = inner / "a" / "b"
    deep.mkdir(parents=True)
    (outer / ".docschat").mkdir()
    (inner / "docschat.toml").write_text("")
    found = find_home(deep)
    assert found.home == inner / ".docschat" and found.config == inner / "docschat.toml"
    assert found.reason == f"found {inner / 'docschat.toml'} (looked up from {deep})"
    found = find_home(outer / "elsewhere")
    assert found.home == outer / ".docschat" and found.config is None
    assert find_home(outer).reason == f"found {outer / '.docschat'}"
    (inner / ".docschat").write_text("a file, not the folder")  # only a folder counts
    assert find_home(inner).home == inner / ".docschat" and find_home(inner).reason.endswith("docschat.toml")


def test_outside_any_project_the_per_user_data_folder(tmp_path, monkeypatch) -> None:
    _no_marker_above(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    found = find_home(tmp_path)
    assert found.home == user_home() and found.config is None
    if sys.platform.startswith("linux"):
        assert found.home == tmp_path / "xdg" / "docschat"
    assert "per-user data folder" in found.reason


def test_settings_take_the_found_home_and_sources_unless_set(tmp_path, monkeypatch) -> None:
    _no_marker_above(tmp_path)
    (tmp_path / "docschat.toml").write_text("")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    monkeypatch.delenv("DOCSCHAT_HOME")
    settings = Settings()
    assert settings.docschat_home == tmp_path / ".docschat" and settings.docschat_config == tmp_path / "docschat.toml"
    assert settings.home_reason.startswith(f"found {tmp_path / 'docschat.toml'}")
    chosen = Settings(docschat_home=tmp_path / "mine")
    assert chosen.docschat_home == tmp_path / "mine" and chosen.home_reason == "DOCSCHAT_HOME"


def _cli(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True, timeout=120,
                          cwd=cwd, env=env)


def _discovering_env(tmp_path: Path) -> dict[str, str]:
    """No DOCSCHAT_HOME nor DATABASE_URL: the CLI finds its home itself; the per-user folder in tmp_path."""
    env = {k: v for k, v in os.environ.items() if k not in {"DOCSCHAT_HOME", "DATABASE_URL", "DOCSCHAT_CONFIG"}}
    return env | {"XDG_DATA_HOME": str(tmp_path / "xdg"), "PYTHONPATH": str(REPO), "EMBEDDING_PROVIDER": "none"}


def test_read_commands_in_a_folder_without_a_database_make_none_and_say_what_makes_one(tmp_path) -> None:
    _no_marker_above(tmp_path)
    folder = tmp_path / "somewhere"
    folder.mkdir()
    env = _discovering_env(tmp_path)
    try:
        for args in (["sql", "-c", "select 1"], ["gaps"], ["ask", "hello"], ["search", "hello"], ["status"]):
            result = _cli(*args, cwd=folder, env=env)
            assert result.returncode == 1, (args, result.stdout, result.stderr)
            lines = result.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("error: no database yet"), (args, result.stderr)
            assert str(tmp_path / "xdg" / "docschat" / "pg") in lines[0] and "`docschat sync`" in lines[0]
            assert "per-user data folder" in lines[0]
        assert list(folder.iterdir()) == [] and not (tmp_path / "xdg").exists()  # nothing made, here or there
    finally:  # should one have started a server after all, it is not left running
        if (tmp_path / "xdg" / "docschat" / "pg").exists():
            _cli("db", "stop", cwd=folder, env=env)


def test_a_database_without_docschat_tables_is_named_with_its_fix(fresh_database) -> None:
    env = {"DATABASE_URL": fresh_database(), "EMBEDDING_PROVIDER": "none"}
    for args in (["gaps"], ["ask", "hello"], ["search", "hello"], ["status"]):
        result = docschat_in_process(*args, env=env)
        assert result.returncode == 1, (args, result.stdout)
        assert "(DATABASE_URL) has no docschat tables: `docschat sync` creates them" in result.stderr, result.stderr
        assert "Traceback" not in result.stderr


def test_a_database_with_nothing_indexed_says_so_to_ask_and_search(clean_db) -> None:
    env = {"DATABASE_URL": clean_db, "EMBEDDING_PROVIDER": "none"}
    for args in (["ask", "hello"], ["search", "hello"], ["search", "hello", "--json"]):
        result = docschat_in_process(*args, env=env)
        assert result.returncode == 1 and "nothing is indexed in" in result.stderr, (args, result.stderr)
    seed_docs(clean_db, DOCS)
    assert docschat_in_process("search", "widget", env=env).returncode == 0


@pytest.mark.slow
def test_every_folder_of_a_project_uses_its_database(tmp_path) -> None:
    """The embedded Postgres made from one subfolder is the one `status`, `sql` and `ask` use from
    another; from outside the project, another database (none here) is looked for."""
    _no_marker_above(tmp_path)
    project = tmp_path / "project"
    (project / "docs" / "guides").mkdir(parents=True)
    (project / ".docschat").mkdir()
    env = _discovering_env(tmp_path)
    try:
        made = _cli("db", "upgrade", cwd=project / "docs" / "guides", env=env)
        assert made.returncode == 0, made.stderr
        assert f"creating the embedded Postgres in {project / '.docschat' / 'pg'}" in made.stderr
        status = _cli("status", cwd=project / "docs", env=env)
        assert status.returncode == 0, status.stderr
        assert (f"database: the embedded Postgres in {project / '.docschat' / 'pg'} (found {project / '.docschat'} "
                f"(looked up from {project / 'docs'}))") in " ".join(status.stdout.split())
        one = _cli("sql", "-c", "select count(*) from docs_section", cwd=project / "docs" / "guides", env=env)
        assert one.returncode == 0 and "note:" not in one.stderr, one.stderr
        ask = _cli("ask", "hello", cwd=project, env=env)
        assert ask.returncode == 1 and "nothing is indexed in the embedded Postgres in " in ask.stderr
        outside = _cli("gaps", cwd=tmp_path, env=env)
        assert outside.returncode == 1 and "no database yet" in outside.stderr
        assert sorted(p.name for p in project.iterdir()) == [".docschat", "docs"]  # no second cluster
    finally:
        stop_embedded_server(project / ".docschat")
        _cli("db", "stop", cwd=project, env=env)


def test_the_projects_dotenv_applies_in_its_subfolders(tmp_path, monkeypatch) -> None:
    from app.config import get_settings

    _no_marker_above(tmp_path)
    (tmp_path / ".docschat").mkdir()
    (tmp_path / ".env").write_text("PUBLIC_URL=https://project.example.com\nSITE_NAME=Project\n")
    (tmp_path / "docs" / "guides").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "docs" / "guides")
    get_settings.cache_clear()
    assert get_settings().public_url == "https://project.example.com"
    (tmp_path / "docs" / "guides" / ".env").write_text("PUBLIC_URL=https://here.example.com\n")
    get_settings.cache_clear()
    settings = get_settings()
    assert settings.public_url == "https://here.example.com" and settings.site_name == "Project"  # here wins
    get_settings.cache_clear()
