"""mkdocs.yml as MkDocs loads it (mkdocs.utils.yaml): its tags kept, never run (app/corpus/site.py
reads the configuration)."""

from __future__ import annotations

from typing import Any

import yaml

from app.corpus.python_markdown import Tagged, TaggedDict, TaggedList, TaggedStr
from app.corpus.site_model import _MAX_DEPTH


class MkDocsLoader(yaml.SafeLoader):
    """mkdocs.yml may hold `!!python/name:…`, `!relative` and `!ENV` tags (MkDocs' own loader
    resolves them): each reads as its plain value, marked as tagged (the Markdown extensions'
    options leave such values out: app/corpus/python_markdown.py); `!ENV` keeps its default too
    (env_defaults)."""


def _any_tag(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        value = TaggedStr(loader.construct_scalar(node))
        value.tag = suffix
        return value
    if isinstance(node, yaml.SequenceNode):
        return TaggedList(loader.construct_sequence(node))
    return TaggedDict(loader.construct_mapping(node))


class _Env(Tagged):
    """An `!ENV` value: the environment variables it names, and its default (yaml_env_tag's
    construct_env_tag: a list's last item, typed as YAML types it, when it has two or more; else
    none)."""

    names: tuple[str, ...] = ()
    default: Any = None


class _EnvStr(TaggedStr, _Env):
    pass


class _EnvList(TaggedList, _Env):
    pass


def _env_tag(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    if isinstance(node, yaml.SequenceNode):
        value: _Env = _EnvList(loader.construct_sequence(node))
        names = node.value[:-1] if len(node.value) > 1 else node.value
        value.default = loader.construct_object(node.value[-1]) if len(node.value) > 1 else None
    else:
        value, names = _EnvStr(loader.construct_scalar(node) if isinstance(node, yaml.ScalarNode) else ""), [node]
    value.tag = "ENV"
    value.names = tuple(str(n.value) for n in names if isinstance(n, yaml.ScalarNode))
    return value


MkDocsLoader.add_multi_constructor("!", _any_tag)
MkDocsLoader.add_constructor("!ENV", _env_tag)
MkDocsLoader.add_multi_constructor("tag:yaml.org,2002:python/", _any_tag)

# Where an `!ENV` value stays unknown (a Tagged value): the Markdown extensions' options and the
# macros plugin's variables, which python_markdown.py and mkdocs_macros.py leave out.
_ENV_UNKNOWN = ("markdown_extensions", "extra")


def env_defaults(config: dict[Any, Any], name: str, warnings: list[str]) -> dict[Any, Any]:
    """The configuration with every `!ENV` value that decides which pages are built (docs_dir,
    exclude_docs, nav, the plugins' options…) replaced by its default, as `mkdocs build` reads it
    where none of its variables is set: docschat cannot see the environment the site is built in,
    and says so."""
    used: list[str] = []
    done: dict[int, Any] = {}  # each list or mapping once: YAML aliases repeat one a billion times

    def resolve(value: Any, depth: int) -> Any:
        if isinstance(value, _Env):
            used.extend(value.names)
            return value.default
        if depth > _MAX_DEPTH or type(value) not in (list, dict):  # a tagged one (`!!python/…`): unknown
            return value
        if id(value) not in done:
            done[id(value)] = value  # within itself (a YAML cycle): as it is
            done[id(value)] = ([resolve(item, depth + 1) for item in value] if type(value) is list
                               else {key: resolve(item, depth + 1) for key, item in value.items()})
        return done[id(value)]

    resolved = {key: value if key in _ENV_UNKNOWN else resolve(value, 0) for key, value in config.items()}
    if used:
        warnings.append(f"{name}: {', '.join(dict.fromkeys(used))} (!ENV) read as the default mkdocs.yml gives, as a "
                        "build where the variable is not set reads it; docschat does not see the environment the site "
                        "is built in")
    return resolved
