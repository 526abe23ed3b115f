"""sql/functions/ is the one definition of every function: a migrated database holds exactly those files.

Design: design/sql-layout.md. Real Postgres, real alembic migrations.
"""

from __future__ import annotations

import asyncio
import shutil
import uuid

import asyncpg
import pytest

from app.db import migrate, repeatable
from app.db.bundle import sql_dir

# One row per function (definition with its defaults, and who may execute it), per trigger of
# those functions, and per view of schema public.
_SNAPSHOT = """
select 'function ' || p.oid::pg_catalog.regprocedure::text as name,
       pg_catalog.pg_get_functiondef(p.oid) || ' acl ' || coalesce(p.proacl::text, 'default') as definition
from pg_catalog.pg_proc p
where p.pronamespace = 'public'::pg_catalog.regnamespace and p.proname = any($1::text[])
union all
select 'trigger ' || t.tgname, pg_catalog.pg_get_triggerdef(t.oid)
from pg_catalog.pg_trigger t join pg_catalog.pg_proc p on p.oid = t.tgfoid
where not t.tgisinternal and p.pronamespace = 'public'::pg_catalog.regnamespace and p.proname = any($1::text[])
union all
select 'view ' || v.viewname, v.definition from pg_catalog.pg_views v where v.schemaname = 'public'
order by 1
"""

# The functions of schema public that no extension (pgvector) owns.
_OWN_FUNCTIONS = """
select p.proname from pg_catalog.pg_proc p
where p.pronamespace = 'public'::pg_catalog.regnamespace
  and not exists (select 1 from pg_catalog.pg_depend d
                  where d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass and d.objid = p.oid and d.deptype = 'e')
order by 1
"""


async def _differences(url: str) -> list[str]:
    """What applying each file of sql/functions/ would change in the database at `url` (nothing
    when the database holds them), and functions the database has that no file declares."""
    found: list[str] = []
    conn = await asyncpg.connect(url)
    try:
        for name, text in repeatable.function_files().items():
            functions = repeatable.function_names(text)
            tr = conn.transaction()
            await tr.start()
            try:
                before = [tuple(r) for r in await conn.fetch(_SNAPSHOT, functions)]
                await conn.execute(text)
                after = [tuple(r) for r in await conn.fetch(_SNAPSHOT, functions)]
            except asyncpg.InvalidFunctionDefinitionError:  # a default or return type that differs
                after = None
            finally:
                await tr.rollback()
            if not before:
                found.append(f"{name}: not in the database")
            elif before != after:
                found.append(f"{name}: the database holds another definition of {', '.join(functions)}")
        stray = {r["proname"] for r in await conn.fetch(_OWN_FUNCTIONS)} - set(repeatable.declared_functions())
        found += [f"public.{f}: in the database, in no file" for f in sorted(stray)]
    finally:
        await conn.close()
    return found


async def _fetch(url: str, sql: str, *args):
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetch(sql, *args)
    finally:
        await conn.close()


async def _execute(url: str, sql: str, *args) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql, *args)
    finally:
        await conn.close()


@pytest.fixture(scope="module")
def migrated(fresh_database) -> str:
    url = fresh_database()
    migrate.upgrade(url)
    return url


def test_a_migrated_database_holds_exactly_the_function_files(migrated: str) -> None:
    assert asyncio.run(_differences(migrated)) == []
    names = {r["proname"] for r in asyncio.run(_fetch(migrated, _OWN_FUNCTIONS))}
    assert {"search_docs_sections", "match_docs_sections", "docs_query_lexemes", "docs_grant_app_role"} <= names


def test_a_function_file_edited_without_migrating_is_a_difference(migrated: str, tmp_path, monkeypatch) -> None:
    """The comparison can fail: the same database against files where one default changed."""
    copy = tmp_path / "functions"
    shutil.copytree(repeatable.functions_dir(), copy)
    edited = copy / "search_docs_sections.sql"
    edited.write_text(edited.read_text().replace("candidate_rows integer default 2000", "candidate_rows integer default 2001"))
    monkeypatch.setattr(repeatable, "functions_dir", lambda: copy)
    assert asyncio.run(_differences(migrated)) == [
        "search_docs_sections.sql: the database holds another definition of search_docs_sections"
    ]
    assert not asyncio.run(_functions_current(migrated))


async def _functions_current(url: str) -> bool:
    conn = await asyncpg.connect(url)
    try:
        return await repeatable.functions_current(conn)
    finally:
        await conn.close()


def test_every_function_is_defined_in_one_file_only(tmp_path, monkeypatch) -> None:
    copy = tmp_path / "functions"
    shutil.copytree(repeatable.functions_dir(), copy)
    (copy / "again.sql").write_text((copy / "docs_chat_gap.sql").read_text())
    monkeypatch.setattr(repeatable, "functions_dir", lambda: copy)
    with pytest.raises(ValueError, match="docs_gap_key is defined in both"):
        repeatable.declared_functions()


@pytest.mark.parametrize(
    "call",
    [
        "select * from public.search_docs_sections('widget')",
        "select * from public.search_docs_sections('widget', 5)",
        "select * from public.match_docs_sections(null::public.vector, 'm', 5)",
        "select * from public.docs_query_lexemes('widget')",
        "select * from public.docs_term_coverage('widget', array['x'])",
        "select public.docs_search_text('widget')",
        "select * from public.docs_cooccurring_terms('widget')",
        "select public.record_docs_chat_feedback(gen_random_uuid(), 'k', 1::smallint, null)",
        "select * from public.docs_section_shown()",
        "select * from public.docs_page_shown()",
    ],
)
def test_a_call_that_forgets_the_audiences_fails(migrated: str, call: str) -> None:
    """`audiences default null` meant every audience: forgotten in psql, it showed internal sections."""
    with pytest.raises(asyncpg.UndefinedFunctionError):
        asyncio.run(_fetch(migrated, call))


def test_audiences_said_explicitly_still_work(migrated: str) -> None:
    assert asyncio.run(_fetch(migrated, "select * from public.search_docs_sections('widget', 5, '{public}')")) == []
    assert asyncio.run(_fetch(migrated, "select * from public.search_docs_sections('widget', 5, null)")) == []


@pytest.mark.parametrize("function", ["docs_section_shown", "docs_page_shown"])
def test_the_sections_and_pages_as_shown_are_inlined(migrated: str, function: str) -> None:
    """The readers' statements (page reads, the page list, /llms.txt) read through these: inlined,
    the plan is that of the join written out; a SET clause (`set search_path`, the style of the
    other files) would run the function as a Function Scan, its rows filled before any filter."""
    plan = "\n".join(r[0] for r in asyncio.run(_fetch(
        migrated, f"explain select * from public.{function}($1::text[]) s order by s.title", ["public"])))
    assert "Function Scan" not in plan and "Seq Scan on docs_section d" in plan, plan


async def _shown_in_rollback(url: str, queries: list[str]) -> list[list[tuple[object, ...]]]:
    conn = await asyncpg.connect(url)
    try:
        tr = conn.transaction()
        await tr.start()
        try:
            await conn.execute(
                "insert into public.docs_section (id, source, page, title, heading, href, content, audiences,"
                " content_hash) values ('a#1', 'code', 'a.py', 'A', 'one', 'https://x/{commit}/a.py#L1', 't',"
                " '{public}', 'h'), ('a#2', 'code', 'a.py', 'A', 'two', 'https://x/{commit}/a.py#L9', 't',"
                " '{public}', 'h'), ('b', 'code', 'b.py', 'B', '', 'https://x/{commit}/b.py#L1', 't', '{internal}', 'h')")
            await conn.execute("insert into public.docs_source_commit (source, commit, fill_hrefs)"
                               " values ('code', 'abc', true)")
            return [[tuple(r) for r in await conn.fetch(q)] for q in queries]
        finally:
            await tr.rollback()
    finally:
        await conn.close()


def test_the_sections_and_pages_as_shown_are_for_the_audiences_said_only(migrated: str) -> None:
    """Filled from the commit row, for the audiences given; null audiences give nothing (fail closed)."""
    sections, pages, no_section, no_page = asyncio.run(_shown_in_rollback(migrated, [
        "select id, href from public.docs_section_shown('{public}') order by id",
        "select title, source, href from public.docs_page_shown('{public}')",
        "select id from public.docs_section_shown(null)",
        "select title from public.docs_page_shown(null)",
    ]))
    assert sections == [("a#1", "https://x/abc/a.py#L1"), ("a#2", "https://x/abc/a.py#L9")]
    assert pages == [("A", "code", "https://x/abc/a.py")]
    assert no_section == no_page == []


def test_an_old_definition_is_replaced_at_upgrade_and_its_grants_kept(fresh_database) -> None:
    """A database at 0014 has docs_query_lexemes with `audiences default null`: create or replace
    cannot remove a default, so the step drops and creates it, and gives back an app role's grant."""
    url = fresh_database()
    migrate.upgrade(url)
    role = "docschat_layout_" + uuid.uuid4().hex[:8]
    asyncio.run(_execute(url, f"create role {role} nologin"))
    try:
        asyncio.run(_execute(url, f"""
            drop function public.docs_query_lexemes(text, text[], float8, integer, integer);
            create function public.docs_query_lexemes(
              query_text text, audiences text[] default null, max_term_share float8 default 0.5,
              max_terms integer default 12, cheap_ndoc integer default 100
            ) returns table (lexeme text, ndoc integer, idf float8)
            language sql stable set search_path = '' as $$ select 'old'::text, 0, 0::float8 $$;
            grant execute on function public.docs_query_lexemes(text, text[], float8, integer, integer) to {role};
            update public.docschat_sql_file set checksum = 'as 0014 left it' where name = 'docs_query_lexemes.sql';
        """))
        assert asyncio.run(_differences(url)) == [
            "docs_query_lexemes.sql: the database holds another definition of docs_query_lexemes"
        ]
        migrate.upgrade(url)  # at head already: only the repeatable step runs
        assert asyncio.run(_differences(url)) == []
        [row] = asyncio.run(_fetch(url, """
            select pg_catalog.pg_get_function_arguments(p.oid) as arguments,
                   exists (select 1 from pg_catalog.aclexplode(p.proacl) a
                           where a.grantee = $1::pg_catalog.regrole and a.privilege_type = 'EXECUTE') as granted
            from pg_catalog.pg_proc p where p.oid = 'public.docs_query_lexemes'::regproc""", role))
        assert row["arguments"].startswith("query_text text, audiences text[], max_term_share double precision DEFAULT 0.25")
        assert row["granted"]
    finally:
        asyncio.run(_execute(url, f"drop owned by {role}; drop role {role}"))


def test_the_server_applies_changed_files_at_start(fresh_database) -> None:
    """A release that only changes sql/functions/ has no new revision: ensure_schema still applies it."""
    url = fresh_database()
    migrate.upgrade(url)
    asyncio.run(_execute(url, """
        create or replace function public.docs_gap_key(question text) returns text
        language sql immutable set search_path = '' as $$ select 'stale' $$;
        update public.docschat_sql_file set checksum = 'stale' where name = 'docs_chat_gap.sql';
    """))
    assert not asyncio.run(_functions_current(url))
    asyncio.run(migrate.ensure_schema(url))
    assert asyncio.run(_functions_current(url))
    assert asyncio.run(_differences(url)) == []


def test_files_unchanged_are_not_applied_again(migrated: str) -> None:
    async def apply() -> bool:
        conn = await asyncpg.connect(migrated)
        try:
            return await repeatable.apply_function_files(conn)
        finally:
            await conn.close()

    assert asyncio.run(apply()) is False


def test_one_step_down_and_up_and_down_to_base(fresh_database) -> None:
    url = fresh_database()
    migrate.upgrade(url)
    migrate.downgrade(url, "-1")
    migrate.upgrade(url)
    assert asyncio.run(_differences(url)) == []
    migrate.downgrade(url, "base")
    assert asyncio.run(_fetch(url, _OWN_FUNCTIONS)) == []
    assert [r[0] for r in asyncio.run(_fetch(url, "select to_regclass('public.docschat_sql_file')"))] == [None]
    migrate.upgrade(url)
    assert asyncio.run(_differences(url)) == []



def test_a_commit_row_written_below_0025_still_moves_the_index_state(fresh_database) -> None:
    """The trigger on docs_source_commit outlives a downgrade of 0025 (it lives in sql/functions/):
    the sync of the docschat before it, which writes (source, commit) only, must still work, and
    a changed commit still moves docs_index_version; an unchanged one does not."""
    url = fresh_database()
    migrate.upgrade(url)
    migrate.downgrade(url, "2026_12_02_0023")
    record = ("insert into public.docs_source_commit (source, commit) values ('s', $1)"
              " on conflict (source) do update set commit = excluded.commit, synced_at = now()")
    version = "select version from public.docs_index_version"
    asyncio.run(_execute(url, record, "aaa"))
    before = asyncio.run(_fetch(url, version))[0][0]
    asyncio.run(_execute(url, record, "aaa"))
    assert asyncio.run(_fetch(url, version))[0][0] == before
    asyncio.run(_execute(url, record, "bbb"))
    assert asyncio.run(_fetch(url, version))[0][0] == before + 1
    migrate.upgrade(url)
    assert asyncio.run(_differences(url)) == []


def test_the_downgrade_of_0025_fills_the_commit_into_the_hrefs_it_kept(fresh_database) -> None:
    """Below 0025 no reader fills `{commit}`, and once fill_hrefs is gone nothing says which rows
    held it: the downgrade fills them (a code source's only), so the docschat before it and a later
    upgrade (fill_hrefs false again) both show the commit, not a literal `{commit}`."""
    url = fresh_database()
    migrate.upgrade(url)
    section = ("insert into public.docs_section (id, source, page, title, heading, href, content, audiences,"
               " content_hash) values ($1, $2, 'a.py', 'a.py', 'a', $3, 'text', '{public}', 'hash')")
    asyncio.run(_execute(url, section, "code-a", "code", "https://x/blob/{commit}/a.py#L1"))
    asyncio.run(_execute(url, section, "docs-a", "docs", "/docs/{commit}/a"))
    asyncio.run(_execute(url, "insert into public.docs_source_commit (source, commit, fill_hrefs)"
                              " values ('code', 'abc', true), ('docs', 'def', false)"))
    migrate.downgrade(url, "2026_12_02_0023")
    migrate.upgrade(url)
    shown = ("select d.id, public.docs_section_href(d.href, c.commit, c.fill_hrefs) from public.docs_section d"
             " left join public.docs_source_commit c on c.source = d.source order by d.id")
    assert [tuple(r) for r in asyncio.run(_fetch(url, shown))] == [
        ("code-a", "https://x/blob/abc/a.py#L1"), ("docs-a", "/docs/{commit}/a")]


def test_a_database_at_a_squashed_revision_is_told_how_to_upgrade(fresh_database) -> None:
    """Revisions 0001-0013 are gone from this docschat: alembic would say "Can't locate revision"."""
    from app.errors import DatabaseError

    url = fresh_database()
    migrate.upgrade(url)
    asyncio.run(_execute(url, "update public.alembic_version set version_num = '2026_11_30_0010'"))
    with pytest.raises(DatabaseError, match="older than this docschat's first revision"):
        asyncio.run(migrate.ensure_schema(url))


_RECORD_GAP_AT_0014 = """
drop function public.record_docs_chat_gap(text, text, real, boolean, integer, text);
create function public.record_docs_chat_gap(
  question text, best_page text, confidence real, refused boolean, retention_days integer default 90
) returns integer
language sql set search_path = '' as $$
  insert into public.docs_chat_gap as g (question_key, question, best_page, confidence, refused)
  values (public.docs_gap_key(question), pg_catalog.left(question, 500), best_page, confidence, refused)
  on conflict (question_key) do update set count = g.count + 1
  returning count;
$$;
"""


def test_a_gap_recorder_of_0014_is_replaced_not_overloaded(fresh_database) -> None:
    """0018 gives record_docs_chat_gap a sixth argument (the outcome). A database at 0014 holds the
    five-argument function: beside the new one every five-argument call would be ambiguous, so the
    revision drops it and the step at head creates the new one. Its body names a column 0018 adds:
    the baseline applies the files unchecked, and the step at head checks them."""
    url = fresh_database()
    migrate.upgrade(url, "2026_12_02_0014")
    asyncio.run(_execute(url, _RECORD_GAP_AT_0014))
    migrate.upgrade(url)
    assert asyncio.run(_differences(url)) == []
    asyncio.run(_execute(url, "select public.record_docs_chat_gap('q one', null, 0.1, true, 90)"))
    asyncio.run(_execute(url, "select public.record_docs_chat_gap('q two', null, 0.1, true, 90, 'refused_indomain')"))
    rows = asyncio.run(_fetch(url, "select question, outcome from public.docs_chat_gap order by question"))
    assert [tuple(r) for r in rows] == [("q one", None), ("q two", "refused_indomain")]
    migrate.downgrade(url, "2026_12_02_0014")
    assert [r[0] for r in asyncio.run(_fetch(url, "select count(*) from pg_catalog.pg_proc"
                                                  " where proname = 'record_docs_chat_gap'"))] == [0]
    migrate.upgrade(url)
    assert asyncio.run(_differences(url)) == []


_SEARCH_TEXT_AT_0028 = """
drop function public.docs_search_text(text, text[], integer, text[]);
create function public.docs_search_text(query_text text, audiences text[], min_typo_length integer default 5)
returns text language sql stable set search_path = '' as $$ select query_text $$;
"""


def test_a_search_text_of_0028_is_replaced_not_overloaded(fresh_database) -> None:
    """0029 gives docs_search_text a fourth argument (the question's everyday words). Beside the
    three-argument function of 0028 every call with two arguments would be ambiguous: the revision
    drops it and the step at head creates the new one."""
    url = fresh_database()
    migrate.upgrade(url, "2026_12_06_0028")
    asyncio.run(_execute(url, _SEARCH_TEXT_AT_0028))
    migrate.upgrade(url)
    assert asyncio.run(_differences(url)) == []
    assert [r[0] for r in asyncio.run(_fetch(url, "select public.docs_search_text('the widget', null)"))] == ["the"]
    migrate.downgrade(url, "2026_12_06_0028")
    assert [r[0] for r in asyncio.run(_fetch(url, "select pg_catalog.pg_get_function_identity_arguments(oid)"
                                                  " from pg_catalog.pg_proc where proname = 'docs_search_text'"))] == [
        "query_text text, audiences text[], min_typo_length integer"]
    migrate.upgrade(url)
    assert asyncio.run(_differences(url)) == []


_SEARCH_BOX_ARGUMENTS_AT_0029 = (
    "query_text text, audiences text[], match_count integer, sections_per_page integer, last_word_prefix boolean,"
    " query_embedding vector, model_name text, prefix_expansions integer, max_stem_trim integer,"
    " min_stem_length integer, candidate_rows integer, vector_rows integer, rrf_k integer, rank_weights real[],"
    " snippet_words integer, snippet_chars integer")


async def _search_box_arguments(url: str) -> list[str]:
    rows = await _fetch(url, "select pg_catalog.pg_get_function_identity_arguments(oid)"
                             " from pg_catalog.pg_proc where proname = 'docs_search_box'")
    return [r[0] for r in rows]


def test_a_search_box_of_0029_is_replaced_not_overloaded(fresh_database) -> None:
    """0030 gives docs_search_box a last argument (the query's everyday words). Beside the
    sixteen-argument function of 0029 every call without it would be ambiguous: the revision drops
    it and the step at head creates the new one; the downgrade makes the old one again."""
    url = fresh_database()
    migrate.upgrade(url, "2026_12_07_0029")  # the baseline made the functions of head: 0029's made again
    asyncio.run(_execute(url, (sql_dir() / "030_search_box_everyday.down.sql").read_text(encoding="utf-8")))
    assert asyncio.run(_search_box_arguments(url)) == [_SEARCH_BOX_ARGUMENTS_AT_0029]
    migrate.upgrade(url)
    assert asyncio.run(_differences(url)) == []
    assert asyncio.run(_search_box_arguments(url)) == [_SEARCH_BOX_ARGUMENTS_AT_0029 + ", everyday_words text[]"]
    assert asyncio.run(_fetch(url, "select * from public.docs_search_box('widget', '{public}')")) == []
    migrate.downgrade(url, "2026_12_07_0029")
    assert asyncio.run(_search_box_arguments(url)) == [_SEARCH_BOX_ARGUMENTS_AT_0029]
    assert asyncio.run(_fetch(url, "select * from public.docs_search_box('widget', '{public}')")) == []
    migrate.upgrade(url)
    assert asyncio.run(_differences(url)) == []
