"""sphinx-config-options' `{config:option}` (loaded by canonical-sphinx: LXD's docs, 913 options)
as its build draws it (recorded: tests/data/site-nav/myst-config-options.shown.json): the key and
its short description on one line, then a table of its fields, "**Key:** | …", "**Type:** | …",
"**Default:** | …", in the directive's order whatever the order written (read as any table: the
build's `<table class="fields">`), then its body. The key's scope (the second
argument) is an anchor, not shown; an option without `:shortdesc:` draws nothing (the extension
warns), and a field it does not know is dropped (myst-parser warns "Unknown option keys"). A field
is read as inline Markdown (the extension parses it as the page's markup: "`6`" shows `6`)."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping

DIRECTIVE = "config:option"
# sphinx_config_options.directive.ConfigOption.optional_fields, in its order, with its labels.
FIELDS = (("type", "Type"), ("default", "Default"), ("defaultdesc", "Default"), ("initialvaluedesc", "Initial value"),
          ("liveupdate", "Live update"), ("condition", "Condition"), ("readonly", "Read-only"),
          ("resource", "Resource"), ("managed", "Managed"), ("required", "Required"), ("scope", "Scope"))


def option_html(argument: str, options: Mapping[str, str], body_html: str, inline: Callable[[str], str]) -> str:
    """The option's HTML: its key and short description, its fields, its body (`body_html`, the
    body already read); `inline`: a field's value as HTML."""
    key = html.escape((argument.split() or [""])[0])
    if "shortdesc" not in options or not key:
        return ""
    rows = [f"<tr><td><strong>Key:</strong></td><td><code>{key}</code></td></tr>"]
    rows += [f"<tr><td><strong>{label}:</strong></td><td>{inline(options[field])}</td></tr>"
             for field, label in FIELDS if field in options]
    return (f"<div><p><code>{key}</code> {inline(options['shortdesc'])}</p>"
            f"<table><tbody>{''.join(rows)}</tbody></table>{body_html}</div>\n")


def role_key(content: str) -> str:
    """What `{config:option}` shows: the key of the option it names (`scope:key`, its scope `server`
    when written without one), even over a title of its own (the extension's resolve_xref draws
    the key). One it does not find shows as written: taken as found when a scope is written."""
    target = content[content.rfind("<") + 1:-1] if content.endswith(">") and content.rfind("<") >= 1 else content
    return target.partition(":")[2].strip() or target.strip()
