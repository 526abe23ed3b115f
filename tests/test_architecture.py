"""The shape of app/: no import cycles, and the layers import only downwards.

The graph is read from the source with `ast`, without importing anything. Every import statement
counts, wherever it stands: at module level, under `if TYPE_CHECKING:`, and inside functions. A
cycle hidden in a function body or a type-checking block is still two modules that each need the
other (usually a type living in the wrong one), so the test does not excuse it.
"""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parent.parent / "app"


def module_name(path: Path, root: Path = APP) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path = APP) -> dict[str, set[str]]:
    """{module: the app modules it imports}, for every app/**/*.py."""
    files = {module_name(path, root): path for path in sorted(root.rglob("*.py"))}

    def known(name: str) -> str | None:
        # `from app.search import legs` names a module; `from app.search.legs import Hit` a name in one.
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets.update(filter(None, (known(alias.name) for alias in node.names)))
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: from . import x, from ..db import y
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, *([node.module] if node.module else [])])
                targets.update(filter(None, (known(f"{base}.{alias.name}") for alias in node.names)))
        graph[module] = targets - {module}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle as [a, b, …, a], or None (depth-first search, three colours)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                return [*path[path.index(target):], target]
            if target not in state and (cycle := visit(target)) is not None:
                return cycle
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state and (cycle := visit(module)) is not None:
            return cycle
    return None


def test_app_has_no_import_cycle() -> None:
    graph = import_graph()
    assert len(graph) > 80 and "app.cli" in graph and "app.search.legs" in graph["app.search.retrieve"]
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_app_packages_have_no_import_cycle() -> None:
    """Coarser: app's packages and top modules (app.corpus, app.search, app.config, …) as nodes.
    Two packages that need each other (corpus and a top-level sources.py once) are one layer."""
    packages: dict[str, set[str]] = {}
    for module, targets in import_graph().items():
        top = ".".join(module.split(".")[:2])
        packages.setdefault(top, set()).update(".".join(t.split(".")[:2]) for t in targets)
    cycle = find_cycle({top: targets - {top, "app"} for top, targets in packages.items()})
    assert cycle is None, "import cycle between packages: " + " -> ".join(cycle or [])

def test_the_cycle_finder_finds_a_cycle(tmp_path: Path) -> None:
    """The check itself: a package whose modules import each other, one of them from a function
    and the other under TYPE_CHECKING, is reported with the cycle's path."""
    package = tmp_path / "app"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "a.py").write_text("def f():\n    from app.sub.b import g\n")
    (package / "sub" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\ndef g(): ...\n"
    )
    (package / "c.py").write_text("from app.sub import a\n")
    graph = import_graph(package)
    assert graph["app.c"] == {"app.sub.a"} and graph["app.sub.a"] == {"app.sub.b"}
    assert find_cycle(graph) == ["app.sub.a", "app.sub.b", "app.sub.a"]


# What app/db may import: the database layer knows no feature (search, chat, indexing, …).
DB_MAY_IMPORT = ("app", "app.config", "app.errors", "app.logging", "app.db")


def test_db_imports_no_feature() -> None:
    wrong = {
        (module, target)
        for module, targets in import_graph().items() if module.startswith("app.db")
        for target in targets if not (target in DB_MAY_IMPORT or target.startswith("app.db."))
    }
    assert not wrong, f"app/db imports features: {sorted(wrong)}"


def test_features_import_neither_the_cli_nor_the_server() -> None:
    """Only the command line imports itself and the server (app.__main__ runs the command line)."""
    wrong = {
        (module, target)
        for module, targets in import_graph().items()
        if not (module == "app.cli" or module.startswith("app.cli.") or module == "app.__main__")
        for target in targets if target == "app.server" or target == "app.cli" or target.startswith("app.cli.")
    }
    assert not wrong, f"imports of the CLI or the server outside app/cli: {sorted(wrong)}"


def test_cli_modules_stay_small() -> None:
    """One module per command group, none over 300 lines."""
    sizes = {path.name: len(path.read_text(encoding="utf-8").splitlines()) for path in (APP / "cli").glob("*.py")}
    assert len(sizes) > 5
    assert not {name: n for name, n in sizes.items() if n > 300}


def test_app_modules_stay_readable() -> None:
    """No module of app/ over 500 lines: a module that grows past it is split by responsibility."""
    sizes = {str(path.relative_to(APP)): len(path.read_text(encoding="utf-8").splitlines())
             for path in APP.rglob("*.py")}
    assert len(sizes) > 50
    assert not {name: n for name, n in sizes.items() if n > 500}


# What app/judge may import: judgment reads retrieval's evidence and the excerpts, and both search
# (the confidence decides the rescue, the conversation runs the check) and chat call into it; it
# imports neither, nor anything above them.
JUDGE_MAY_NOT_IMPORT = ("app.search", "app.chat", "app.web", "app.admin", "app.cli", "app.doors", "app.server")


def test_judge_imports_no_search_or_chat() -> None:
    graph = import_graph()
    assert "app.judge.confidence" in graph["app.search.retrieve"]
    wrong = {
        (module, target)
        for module, targets in graph.items() if module.startswith("app.judge")
        for target in targets if target.startswith(JUDGE_MAY_NOT_IMPORT)
    }
    assert not wrong, f"app/judge imports a layer above it: {sorted(wrong)}"
