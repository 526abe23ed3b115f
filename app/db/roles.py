"""Least privilege: granting the app's database role what it needs (sql/functions/docs_grant_app_role.sql)."""

from __future__ import annotations

import re

import asyncpg

from app.errors import DatabaseError

# A plain SQL identifier; the name is passed as a bind parameter and quoted by format(%I) in SQL.
_ROLE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,49}$")


async def grant_app_role(conn: asyncpg.Connection, role: str) -> list[tuple[str, str]]:
    """Grant `role` the app's privileges and RLS policies (idempotent); the (object, privileges) granted.

    Must run as the owner of the tables (the role that runs migrations).
    """
    if not _ROLE_NAME.match(role):
        raise DatabaseError(f"role name {role!r} is not a plain identifier (letters, digits, _; at most 50)")
    exists = await conn.fetchval("select to_regprocedure('public.docs_grant_app_role(text)') is not null")
    if not exists:
        raise DatabaseError("the database has no docs_grant_app_role(): run `docschat db upgrade` first")
    try:
        async with conn.transaction():
            rows = await conn.fetch("select object, privileges from public.docs_grant_app_role($1)", role)
    except asyncpg.PostgresError as exc:
        raise DatabaseError(f"could not grant role {role!r}: {exc}") from None
    return [(r["object"], r["privileges"]) for r in rows]
