"""The repeatable step of the migrations: every function (and its trigger) lives once, in sql/functions/.

After an upgrade reaches head, the files are applied in one transaction when any checksum differs
from those recorded in public.docschat_sql_file (Flyway's `R__` migrations; design/sql-layout.md).
Each file is `create or replace`: grants and dependants stay. Where Postgres refuses that (a
parameter default removed, a return type changed), the file's functions are dropped and created
again, and the grants other roles held on them are given back.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import asyncpg

from app.db.bundle import sql_dir

#: Where the checksums of the applied files are kept (not a docs_ table: the app role reads it only).
CHECKSUM_TABLE = "public.docschat_sql_file"

_FUNCTION_NAME = re.compile(r"^create\s+(?:or\s+replace\s+)?function\s+public\.(\w+)\s*\(", re.IGNORECASE | re.MULTILINE)

_CREATE_CHECKSUM_TABLE = f"""
create table if not exists {CHECKSUM_TABLE} (
  name text primary key,
  checksum text not null,
  applied_at timestamptz not null default now()
);
comment on table {CHECKSUM_TABLE} is 'sha256 of each sql/functions/ file as last applied (app/db/repeatable.py)';
do $$
begin
  revoke all on table {CHECKSUM_TABLE} from public;
  if exists (select 1 from pg_catalog.pg_roles where rolname = 'anon') then
    revoke all on table {CHECKSUM_TABLE} from anon;
  end if;
  if exists (select 1 from pg_catalog.pg_roles where rolname = 'authenticated') then
    revoke all on table {CHECKSUM_TABLE} from authenticated;
  end if;
end
$$;
"""


def functions_dir() -> Path:
    return sql_dir() / "functions"


def function_files() -> dict[str, str]:
    """{file name: text} of sql/functions/, in name order."""
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(functions_dir().glob("*.sql"))}


def checksum(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def function_names(text: str) -> list[str]:
    """The public functions a file creates, in order."""
    return _FUNCTION_NAME.findall(text)


def declared_functions() -> dict[str, str]:
    """{function name: the file that defines it}; a name defined twice is an error."""
    owners: dict[str, str] = {}
    for name, text in function_files().items():
        for function in function_names(text):
            if function in owners:
                raise ValueError(f"function public.{function} is defined in both {owners[function]} and {name}")
            owners[function] = name
    return owners


async def recorded_checksums(conn: asyncpg.Connection) -> dict[str, str] | None:
    """The checksums recorded by the last apply; None before the first."""
    if not await conn.fetchval("select to_regclass($1) is not null", CHECKSUM_TABLE):
        return None
    rows = await conn.fetch(f"select name, checksum from {CHECKSUM_TABLE}")
    return {r["name"]: r["checksum"] for r in rows}


async def functions_current(conn: asyncpg.Connection) -> bool:
    """Whether the database holds the functions of this docschat's sql/functions/ (by checksum)."""
    wanted = {name: checksum(text) for name, text in function_files().items()}
    return await recorded_checksums(conn) == wanted


async def apply_function_files(conn: asyncpg.Connection, *, force: bool = False, check_bodies: bool = True) -> bool:
    """Apply sql/functions/ in one transaction when a checksum changed (or `force`); True if applied.

    Two passes: the first with check_function_bodies off, so files apply in any order (a function
    may call one defined in a later file); the second with it on, so every body is checked against
    the tables and functions that now all exist. `check_bodies=False` (the baseline revision, whose
    tables later revisions extend: a body may name a column added after it) runs the first pass
    only and records no checksum, so the step at head applies and checks every file again.
    """
    files = function_files()
    declared_functions()  # a name defined twice fails here, before anything changes
    wanted = {name: checksum(text) for name, text in files.items()}
    async with conn.transaction():
        await conn.execute(_CREATE_CHECKSUM_TABLE)
        if not force and await recorded_checksums(conn) == wanted:
            return False
        await conn.execute("set local check_function_bodies = off")
        for name, text in files.items():
            await _apply_one(conn, name, text)
        if not check_bodies:
            await conn.execute(f"delete from {CHECKSUM_TABLE}")
            return True
        await conn.execute("set local check_function_bodies = on")
        for name, text in files.items():
            await _apply_one(conn, name, text)
        await conn.execute(f"delete from {CHECKSUM_TABLE}")
        await conn.executemany(
            f"insert into {CHECKSUM_TABLE} (name, checksum) values ($1, $2)", sorted(wanted.items())
        )
    return True


async def _apply_one(conn: asyncpg.Connection, name: str, text: str) -> None:
    try:
        async with conn.transaction():  # a savepoint: a refused replace leaves nothing behind
            await conn.execute(text)
        return
    except asyncpg.InvalidFunctionDefinitionError:
        # "cannot remove parameter defaults from existing function", "cannot change return type of
        # existing function": drop and create, keeping what other roles were granted.
        pass
    grants = []
    for function in function_names(text):
        grants += await _execute_grants(conn, function)
        await conn.execute(f"drop function if exists public.{_ident(function)}")
    await conn.execute(text)
    for function, role in grants:
        await conn.execute(f"grant execute on function public.{_ident(function)} to {role}")


async def _execute_grants(conn: asyncpg.Connection, function: str) -> list[tuple[str, str]]:
    """(function, role) for each role other than PUBLIC and the owner that may execute `function`."""
    rows = await conn.fetch(
        """
        select a.grantee::pg_catalog.regrole::text as role
        from pg_catalog.pg_proc p
        cross join lateral pg_catalog.aclexplode(p.proacl) as a
        where p.pronamespace = 'public'::pg_catalog.regnamespace and p.proname = $1
          and a.privilege_type = 'EXECUTE' and a.grantee <> 0 and a.grantee <> p.proowner
        """,
        function,
    )
    return [(function, r["role"]) for r in rows]


async def drop_function_files(conn: asyncpg.Connection) -> None:
    """Drop every function sql/functions/ declares (their triggers first) and the checksums."""
    async with conn.transaction():
        for function in declared_functions():
            await conn.execute(f"drop function if exists public.{_ident(function)} cascade")
        await conn.execute(f"drop table if exists {CHECKSUM_TABLE}")


def _ident(name: str) -> str:
    # Names come from the files' `create ... function public.<word>(`: \w+ only, but quote anyway.
    return '"' + name.replace('"', '""') + '"'
