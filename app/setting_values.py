"""How a setting's value is written and read: lists in the environment, names, origins, MCP tokens.

Apart from app/config.py so that the Settings class reads as the list of settings it is.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import BeforeValidator
from pydantic_settings import NoDecode


def _split_list(value: object) -> object:
    if isinstance(value, str):
        return [item.strip() for item in value.split(",") if item.strip()]
    return value


def _split_questions(value: object) -> object:
    if isinstance(value, str):
        return [item.strip() for item in value.split("|") if item.strip()]
    return value


# Example questions contain commas: written in the environment as "first? | second?".
QuestionList = Annotated[list[str], NoDecode, BeforeValidator(_split_questions)]

# A list setting is written in the environment as "a, b, c".
CommaList = Annotated[list[str], NoDecode, BeforeValidator(_split_list)]

# An audience or source name (front matter, docschat.toml, CHAT_AUDIENCES).
NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
_ORIGIN = re.compile(r"^(?P<scheme>[Hh][Tt][Tt][Pp][Ss]?)://(?P<host>[A-Za-z0-9.\-]+|\[[0-9A-Fa-f:.]+\])(?::(?P<port>[0-9]{1,5}))?$")
# What a browser's URL parser drops or reinterprets (as widget.js URL_TRICKS and app/web/pages.py).
URL_TRICKS = re.compile(r"[\x00-\x20\x7f-\x9f\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f\u3000\ufeff\\]")


def browser_origin(origin: str) -> str:
    """`origin` as a browser sends it in the Origin header: scheme and host in lower case, no
    default port. ValueError when it is not scheme://host[:port] (a path, `null`, a port past 65535)."""
    match = _ORIGIN.match(origin)
    port = match.group("port") if match else None
    if match is None or (port is not None and not 0 < int(port) <= 65535):
        hint = " (a name that is not ASCII is written in its xn-- form)" if not origin.isascii() else ""
        raise ValueError(f"{origin[:80]!r} is not an origin (scheme://host[:port], like https://docs.example.com){hint}")
    scheme, host = match.group("scheme").lower(), match.group("host").lower()
    default = {"http": "80", "https": "443"}[scheme]
    return f"{scheme}://{host}" + (f":{port}" if port and port != default else "")


def parse_mcp_tokens(text: str) -> list[tuple[str, list[str]]]:
    """'token1=a,b;token2=c' as [(token1, [a, b]), (token2, [c])]. ValueError names a bad entry by
    its position only: the message must never hold a token."""
    pairs: list[tuple[str, list[str]]] = []
    for number, entry in enumerate((e.strip() for e in text.split(";")), start=1):
        if not entry:
            continue
        token, sep, audiences = entry.partition("=")
        token = token.strip()
        names = sorted({a.strip().lower() for a in audiences.split(",") if a.strip()})
        if not sep or not names:
            raise ValueError(f"entry {number} is not 'token=audience[,audience]'")
        if len(token) < 16 or any(ch.isspace() for ch in token):
            raise ValueError(f"entry {number}: the token must be 16+ characters without spaces (openssl rand -hex 24)")
        bad = [name for name in names if not NAME.match(name)]
        if bad:
            raise ValueError(f"entry {number}: {bad[0][:80]!r} is not an audience name (letters, digits, - and _)")
        if any(token == known for known, _ in pairs):
            raise ValueError(f"entry {number} repeats the token of an earlier entry")
        pairs.append((token, names))
    if not pairs:
        raise ValueError("lists no token; leave MCP_TOKENS unset for anonymous access only")
    return pairs
