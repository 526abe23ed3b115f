"""MyST-NB's text notebooks (myst_nb in a Sphinx site's extensions), as myst-nb 1.4 reads them: a
page is a notebook only when its front matter says so (`file_format: mystnb`, or jupytext's
`text_representation: format_name: myst`), and only a notebook's top-level `{code-cell}`s become
cells; any other one shows nothing (myst-nb warns "Found an unexpected `code-cell`"). A cell's
source is removed by its metadata's `mystnb: remove_code_source`, else the page's, else conf.py's
`nb_remove_code_source` (myst_nb.core.config.get_cell_level_config)."""

from __future__ import annotations

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
