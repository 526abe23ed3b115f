"""MyST-NB's text notebooks (myst_nb in a Sphinx site's extensions), as myst-nb 1.4 reads them: a
page is a notebook only when its front matter says so (`file_format: mystnb`, or jupytext's
`text_representation: format_name: myst`), and only a notebook's top-level `{code-cell}`s become
cells; any other one shows nothing (myst-nb warns "Found an unexpected `code-cell`"). A cell's
source is removed by its metadata's `mystnb: remove_code_source`, else the page's, else conf.py's
`nb_remove_code_source` (myst_nb.core.config.get_cell_level_config)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import yaml

_OPTION = re.compile(r"^[ \t]*:([\w-]+):(?:[ \t](.*))?$")
_YAML_BLOCK = re.compile(r"^[ \t]*---[ \t]*\n((?:.*\n)*?)[ \t]*---[ \t]*\n")


def is_text_notebook(front: Mapping[str, Any]) -> bool:
    """myst_nb.core.read.is_myst_markdown_notebook, from the page's front matter."""
    if front.get("file_format") == "mystnb":
        return True
    jupytext = front.get("jupytext")
    representation = jupytext.get("text_representation") if isinstance(jupytext, dict) else None
    return isinstance(representation, dict) and representation.get("format_name") == "myst"


def removes_source(metadata: Mapping[str, Any], default: bool) -> bool:
    """The `remove_code_source` of a cell's or a page's metadata (its `mystnb:` mapping, or the
    deprecated `render:` one where `mystnb:` is absent), else `default`."""
    settings = metadata.get("mystnb", metadata.get("render"))
    value = settings.get("remove_code_source") if isinstance(settings, dict) else None
    return value if isinstance(value, bool) else default


def cell_metadata(content: str) -> dict[str, Any]:
    """A `{code-cell}`'s metadata, as myst-parser's parse_directive_text reads its options: a
    `---` YAML block, or `:key: value` lines read as YAML; {} when they do not parse."""
    block = _YAML_BLOCK.match(content)
    if block is not None:
        text = block.group(1)
    else:
        lines = []
        for line in content.splitlines():
            option = _OPTION.match(line)
            if option is None:
                break
            lines.append(f"{option.group(1)}: {option.group(2) or ''}")
        text = "\n".join(lines)
    try:
        metadata = yaml.safe_load(text) if text.strip() else {}
    except (yaml.YAMLError, RecursionError):
        return {}
    return metadata if isinstance(metadata, dict) else {}


def drop_removed_markdown_cells(state: Any) -> None:
    """A markdown-it core rule, on a text notebook's page (its Build's `cells` true): a markdown
    cell whose `+++ {"tags": ["remove-cell"]}` metadata removes it shows nothing (myst-nb's
    nb_to_tokens skips it, as it skips such a code cell). A markdown cell runs, as myst-nb's
    read_myst_markdown_notebook cuts them, from a top-level `+++` to the next one or the next
    top-level `{code-cell}` or `{raw-cell}` fence; its metadata is the `+++` line's JSON."""
    build = state.env.get("build") if isinstance(state.env, dict) else None
    if build is None or build.cells is not True or state.env.get("depth"):
        return
    kept, removing = [], False
    for token in state.tokens:
        if token.level == 0 and (token.type == "myst_block_break" or token.type == "fence"
                                 and token.info.startswith(("{code-cell}", "{raw-cell}"))):
            removing = token.type == "myst_block_break" and _removes_cell(token.content)
        if not removing or token.type == "myst_block_break":
            kept.append(token)
    state.tokens[:] = kept


def _removes_cell(metadata: str) -> bool:
    try:
        read = json.loads(metadata.strip()) if metadata.strip() else {}
    except ValueError:
        return False
    tags = read.get("tags", []) if isinstance(read, dict) else []
    return isinstance(tags, (list, str, dict)) and ("remove_cell" in tags or "remove-cell" in tags)
