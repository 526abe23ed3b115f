"""The MyST substitutions a Sphinx conf.py adds by code that can be read without running it: what
Canonical's starter pack writes (LXD's docs),

    myst_substitutions = {}
    if os.path.exists('./substitutions.yaml'):
        with open('./substitutions.yaml', 'r') as fd:
            myst_substitutions.update(yaml.safe_load(fd.read()))

`myst_substitutions.update(…)` of a literal dict, or of a YAML or JSON file whose path is a literal
(`yaml.safe_load`/`json.load` of `open(path)` or of a `with open(path) as fd` file), at the top
level or under `with open(…)` and `if os.path.exists(path)` (`isfile`): the file is read from the
site's files, relative to conf.py's folder (Sphinx runs conf.py there). Any other use of the name
leaves the values unknown (site_code._changed_by_code decides it, on the tree without the updates
read here)."""

from __future__ import annotations

import ast
import copy
import json
import posixpath
from collections.abc import Callable, Mapping
from typing import Any

import yaml

NAME = "myst_substitutions"
_LOADERS = {("yaml", "safe_load"), ("yaml", "load"), ("yaml", "full_load"), ("json", "load"), ("json", "loads")}
_EXISTS = frozenset({"exists", "isfile"})


class _Unknown(Exception):
    """conf.py does something here whose outcome docschat cannot know without running it."""


def _literal_path(node: ast.expr) -> str:
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        raise _Unknown
    path = posixpath.normpath(node.value)
    if path.startswith(("/", "../")) or path == "..":  # outside the site's files
        raise _Unknown
    return path


def _opened(node: ast.expr) -> str | None:
    """The literal path of `open(path)` / `open(path, 'r')`, None when `node` is not a call of open."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open"):
        return None
    if not node.args or len(node.args) > 2 or any(k.arg not in ("mode", "encoding") for k in node.keywords):
        raise _Unknown
    if len(node.args) == 2 and not (isinstance(node.args[1], ast.Constant) and node.args[1].value in ("r", "rt")):
        raise _Unknown
    return _literal_path(node.args[0])


def _file_of(node: ast.expr, handles: Mapping[str, str]) -> str:
    """The path of the file `node` reads: `fd`, `fd.read()` (fd a `with open(path) as fd`), `open(path)`."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "read" \
            and not node.args and not node.keywords:
        node = node.func.value
    if isinstance(node, ast.Name) and node.id in handles:
        return handles[node.id]
    if (path := _opened(node)) is not None:
        return path
    raise _Unknown


def _added(argument: ast.expr, handles: Mapping[str, str], files: Mapping[str, str]) -> dict[Any, Any]:
    """What `myst_substitutions.update(argument)` adds."""
    if isinstance(argument, ast.Call) and isinstance(argument.func, ast.Attribute) \
            and isinstance(argument.func.value, ast.Name) and (argument.func.value.id, argument.func.attr) in _LOADERS \
            and len(argument.args) == 1:
        path = _file_of(argument.args[0], handles)
        if path not in files:  # Sphinx fails to build (FileNotFoundError)
            raise _Unknown
        try:
            found = json.loads(files[path]) if argument.func.value.id == "json" else yaml.safe_load(files[path])
        except (ValueError, yaml.YAMLError, RecursionError):
            raise _Unknown from None
    else:
        try:
            found = ast.literal_eval(argument)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            raise _Unknown from None
    if not isinstance(found, dict):  # `.update(None)` fails the build
        raise _Unknown
    return found


def _exists_test(test: ast.expr) -> str:
    """The path of `os.path.exists(path)` / `os.path.isfile(path)`."""
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) and test.func.attr in _EXISTS \
            and len(test.args) == 1 and not test.keywords:
        return _literal_path(test.args[0])
    raise _Unknown


def _update_argument(statement: ast.stmt) -> ast.expr | None:
    if isinstance(statement, ast.Expr) and isinstance(call := statement.value, ast.Call) \
            and isinstance(call.func, ast.Attribute) and call.func.attr == "update" \
            and isinstance(call.func.value, ast.Name) and call.func.value.id == NAME \
            and len(call.args) == 1 and not call.keywords:
        return call.args[0]
    return None


def substitutions_by_code(tree: ast.Module, files: Mapping[str, str], start: dict[Any, Any],
                          changed_by_code: Callable[[ast.Module, str], int | None]) -> tuple[dict[Any, Any] | None, int | None]:
    """`start` (conf.py's literal `myst_substitutions`) with what conf.py's readable updates add,
    and None; or None and the line of the first use docschat cannot read (`changed_by_code` of the
    tree without the updates read here)."""
    values = dict(start)
    stripped = copy.deepcopy(tree)
    first = min((n.lineno for n in tree.body if isinstance(n, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == NAME for t in n.targets)), default=None)

    def walk(body: list[ast.stmt], handles: dict[str, str], present: bool) -> None:
        for index, statement in enumerate(body):
            if (argument := _update_argument(statement)) is not None:
                if first is None or statement.lineno < first:
                    continue  # before the assignment: left for changed_by_code
                try:
                    added = _added(argument, handles, files) if present else {}
                except _Unknown:
                    continue
                values.update(added)
                body[index] = ast.Pass(lineno=statement.lineno, col_offset=0)
            elif isinstance(statement, ast.If) and not statement.orelse:
                try:
                    path = _exists_test(statement.test)
                except _Unknown:
                    continue
                walk(statement.body, handles, present and path in files)
            elif isinstance(statement, ast.With):
                opened = dict(handles)
                for item in statement.items:
                    try:
                        handle = _opened(item.context_expr)
                    except _Unknown:
                        handle = None
                    if handle is not None and isinstance(item.optional_vars, ast.Name):
                        opened[item.optional_vars.id] = handle
                walk(statement.body, opened, present)

    walk(stripped.body, {}, True)
    line = changed_by_code(stripped, NAME)
    return (None, line) if line is not None else (values, None)
