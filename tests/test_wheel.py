"""The built wheel, installed outside the checkout, migrates, syncs, searches and serves."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import httpx
import pytest

from tests.helpers import make_docs_repo, parse_sse
from tests.served import ServeProcess
from tests.test_chat import DOCS

pytestmark = [pytest.mark.slow, pytest.mark.wheel]
REPO_ROOT = Path(__file__).resolve().parent.parent


def build_wheel(out: Path) -> Path:
    """`pip wheel` of a copy of the checkout's files (tracked and new, not ignored), without isolation."""
    source = out / "src"
    source.mkdir(parents=True)
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO_ROOT, check=True,
                           capture_output=True).stdout.decode().split("\0")
    for name in filter(None, files):
        if (REPO_ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            (source / name).write_bytes((REPO_ROOT / name).read_bytes())
    # Without isolation (fast, offline) when this environment's setuptools can build the project
    # (PEP 639 license strings need 77); else pip fetches the build backend from PyPI.
    from importlib.metadata import version

    isolation = [] if int(version("setuptools").split(".")[0]) < 77 else ["--no-build-isolation"]
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", *isolation, "-q",
                    "-w", str(out / "dist"), str(source)], check=True, capture_output=True)
    return next((out / "dist").glob("docschat-*.whl"))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    return build_wheel(tmp_path_factory.mktemp("wheel"))


def test_wheel_carries_sql_migrations_and_alembic_ini(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    sql = sorted(p.relative_to(REPO_ROOT / "sql").as_posix() for p in (REPO_ROOT / "sql").rglob("*.sql"))
    revisions = sorted(p.name for p in (REPO_ROOT / "migrations" / "versions").glob("*.py"))
    assert sql and revisions
    assert {f"app/_bundle/sql/{n}" for n in sql} <= names
    assert {f"app/_bundle/migrations/versions/{n}" for n in revisions} <= names
    assert {"app/_bundle/alembic.ini", "app/_bundle/migrations/env.py", "app/_bundle/migrations/sqlfile.py",
            "app/web/static/widget.js", "app/web/static/uPlot.iife.min.js", "app/web/static/uPlot.LICENSE"} <= names
    assert not any(n.startswith(("tests/", "scripts/", "sql/", "migrations/")) for n in names)


def deployment_commands() -> list[list[str]]:
    """Every `docschat …` command the Dockerfile and compose.yaml run."""
    import shlex

    import yaml

    commands: list[list[str]] = []
    for line in (REPO_ROOT / "Dockerfile").read_text().splitlines():
        if line.startswith("CMD "):
            commands.append(json.loads(line[len("CMD "):]))
    for service in yaml.safe_load((REPO_ROOT / "compose.yaml").read_text())["services"].values():
        command = service.get("command")
        if command and command[:2] == ["sh", "-c"]:
            commands += [shlex.split(part) for part in command[2].split("&&")]
        elif command:
            commands.append(command)
    return [c for c in commands if c and c[0] == "docschat"]


def test_dockerfile_copies_what_exists_and_runs_as_non_root() -> None:
    dockerfile = (REPO_ROOT / "Dockerfile").read_text()
    for line in dockerfile.splitlines():
        if line.startswith("COPY ") and "--from=" not in line:
            for source in line.split()[1:-1]:
                assert (REPO_ROOT / source).exists(), source
    assert dockerfile.count("FROM ") == 2 and "\nUSER docschat" in dockerfile
    assert len(deployment_commands()) >= 4  # serve (Dockerfile, compose), db upgrade, db grant, sync


def test_installed_wheel_upgrades_syncs_searches_and_serves(wheel: Path, fresh_database, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q",
                    "--no-deps", "--no-index", str(wheel)], check=True, capture_output=True)
    # The dependencies (torch among them) come from the running environment, not from a download.
    site = subprocess.run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    shared = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(site) / "shared_dependencies.pth").write_text("\n".join(sorted(shared)) + "\n")

    work = tmp_path / "elsewhere"  # no checkout here: nothing can be read from the repository
    work.mkdir()
    docs = make_docs_repo(tmp_path / "docs-repo", DOCS)
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "DATABASE_URL", "VIRTUAL_ENV"}}
    env.update(DATABASE_URL=fresh_database(), DOCSCHAT_HOME=str(work / "home"), EMBEDDING_PROVIDER="none",
               DOCS_REPO=str(docs), RATE_LIMIT_PER_HOUR="100", RATE_LIMIT_PER_DAY="100", LOG_LEVEL="warning")
    docschat = str(venv / "bin" / "docschat")

    def run(*args: str) -> str:
        result = subprocess.run([docschat, *args], env=env, cwd=work, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, f"docschat {' '.join(args)}:\n{result.stdout}\n{result.stderr}"
        return result.stdout

    where = subprocess.run([str(venv / "bin" / "python"), "-c", "import app; print(app.__file__)"], env=env,
                           cwd=work, check=True, capture_output=True, text=True).stdout.strip()
    assert where.startswith(str(venv)), where

    assert "database at revision head" in run("db", "upgrade")
    status = json.loads(run("db", "status", "--json"))
    assert status["up_to_date"] and status["revision"] == status["head"]
    summary = json.loads(run("sync", "--json"))
    assert summary["pages"] == 3 and summary["new"] == summary["chunks"] > 0
    found = json.loads(run("search", "How do I embed the widget?", "--json"))
    assert found["pages"][0]["title"] == "Chat widget"

    entry_points = zipfile.ZipFile(wheel).read(
        next(n for n in zipfile.ZipFile(wheel).namelist() if n.endswith(".dist-info/entry_points.txt"))).decode()
    assert "docschat = app.cli:main" in entry_points
    for command in deployment_commands():  # the Dockerfile's and compose's commands parse in the installed CLI
        run(*command[1:], "--help")

    with ServeProcess([docschat], env, cwd=work) as server:
        response = httpx.post(server.url + "/docs/chat", json={"message": "How do I embed the widget?"}, timeout=60)
    assert response.status_code == 200
    parts = [p for p in parse_sse(response.text) if isinstance(p, dict)]
    assert [p["title"] for p in parts if p["type"] == "source-url"][0] == "Chat widget"
    assert parts[-1]["type"] == "finish" and any(p["type"] == "text-delta" for p in parts)
