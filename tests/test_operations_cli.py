"""`docschat sync` as a recorded job, `docschat status`, `docschat index clear`: the real CLI on a real Postgres."""

from __future__ import annotations

import asyncio
import json
import uuid

import pytest
from click.testing import CliRunner

from app.cli import main
from app.config import get_settings
from app.indexing.jobs import SYNC_LEASE
from tests.helpers import commit_all, count_composed_pages, git, make_docs_repo, write_files
from tests.test_admin import DOCS


@pytest.fixture
def cli_env(db_env, pool, tmp_path, monkeypatch):
    repo = make_docs_repo(tmp_path / "repo", DOCS)
    monkeypatch.setenv("DOCS_REPO", str(repo))
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    get_settings.cache_clear()
    return repo


async def docschat(*args: str, input: str | None = None):
    """The CLI in a thread (it runs its own event loop)."""
    get_settings.cache_clear()
    return await asyncio.to_thread(CliRunner().invoke, main, list(args), input=input)


async def test_cli_sync_is_recorded_and_status_shows_it(cli_env, pool) -> None:
    result = await docschat("sync", "--json")
    assert result.exit_code == 0, result.output
    async with pool.acquire() as conn:
        runs = await conn.fetch("select source, trigger, state, commit, report from public.docs_sync_run")
    head = git(cli_env, "rev-parse", "main").strip()
    assert [(r["source"], r["trigger"], r["state"], r["commit"]) for r in runs] == [("docs", "cli", "ok", head)]
    assert json.loads(runs[0]["report"])["chunks"] == 5
    text = await docschat("status")
    assert text.exit_code == 0, text.output
    assert "docs: 3 pages, 5 chunks (models: none 5; audiences: public 4, internal 1)" in text.output
    assert "last sync: ok at " in text.output and "by cli" in text.output and f"synced commit {head[:12]}\n" in text.output
    assert "scheduler: off" in text.output and "gaps: 0" in text.output


async def test_cli_sync_and_clear_are_refused_while_a_job_runs(cli_env, pool) -> None:
    holder_id = uuid.uuid4()
    async with pool.acquire() as holder:
        assert await holder.fetchval("select public.docs_lease_take($1, $2, 60)", SYNC_LEASE, holder_id)
        try:
            sync = await docschat("sync")
            clear = await docschat("index", "clear", "--yes")
        finally:
            await holder.fetchval("select public.docs_lease_release($1, $2)", SYNC_LEASE, holder_id)
    for result in (sync, clear):
        assert result.exit_code == 1
        assert "another sync is running" in result.output
    assert (await docschat("sync")).exit_code == 0  # the lock is free again


async def test_index_clear_asks_first_and_clears_one_source_or_all(cli_env, pool) -> None:
    assert (await docschat("sync")).exit_code == 0

    async def count() -> int:
        async with pool.acquire() as conn:
            return await conn.fetchval("select count(*) from public.docs_section")

    declined = await docschat("index", "clear", input="n\n")
    assert declined.exit_code == 1 and "nothing deleted" in declined.output and await count() == 5
    other = await docschat("index", "clear", "--source", "help", "--yes")  # a typo: said "deleted 0", exit 0
    assert other.exit_code == 1 and "holds no chunk of source 'help'" in other.output and await count() == 5
    one = await docschat("index", "clear", "--source", "docs", input="y\n")
    assert one.exit_code == 0 and "deleted 5 chunks" in one.output and await count() == 0
    async with pool.acquire() as conn:  # the statistics follow the rows
        assert await conn.fetchval("select count(*) from public.docs_lexeme_stats") == 0


def test_sql_gives_psql_the_password_in_its_environment_not_on_its_command_line(tmp_path, monkeypatch) -> None:
    """Arguments are visible to every user of the machine (`ps`); the environment is not."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    psql = bin_dir / "psql"
    psql.write_text('#!/bin/sh\nprintf "%s\\n" "$@" > "$(dirname "$0")/argv"\nprintf "%s" "$PGPASSWORD" > "$(dirname "$0")/pw"\n')
    psql.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{__import__('os').environ['PATH']}")
    monkeypatch.setenv("DATABASE_URL", "postgresql://docs:s%3Acret@db.example:5432/docs")
    get_settings.cache_clear()
    result = CliRunner().invoke(main, ["sql", "-c", "select 1"])
    assert result.exit_code == 0, result.output
    argv = (bin_dir / "argv").read_text().splitlines()
    assert argv[0] == "postgresql://docs@db.example:5432/docs" and "select 1" in argv
    assert not any("cret" in a for a in argv) and (bin_dir / "pw").read_text() == "s:cret"
    # libpq also takes the password as a parameter: it was on the command line, and in messages.
    monkeypatch.setenv("DATABASE_URL",
                       "postgresql:///docs?host=/run/pg&password=s%3Acret&options=-c%20statement_timeout%3D5000")
    get_settings.cache_clear()
    result = CliRunner().invoke(main, ["sql", "-c", "select 1"])
    assert result.exit_code == 0, result.output
    argv = (bin_dir / "argv").read_text().splitlines()
    # The rest of the query as written: re-encoded, %20 became +, which libpq does not decode.
    assert argv[0] == "postgresql:///docs?host=/run/pg&options=-c%20statement_timeout%3D5000"
    assert (bin_dir / "pw").read_text() == "s:cret"
    from app.db.url import redact_url

    assert redact_url("postgresql:///docs?password=s%3Acret&port=1") == "postgresql:///docs?port=1&password=***"


async def test_sync_full_flag_composes_every_page_and_changes_nothing(cli_env, pool, monkeypatch) -> None:
    """`docschat sync --full` reaches the sync: a plain re-sync composes no page (their keys are
    unchanged), `--full` composes all three and writes nothing (compose calls counted through the
    real compose._compose_page, wrapped)."""
    composed = count_composed_pages(monkeypatch)

    async def sync(*flags: str) -> dict:
        composed.clear()
        result = await docschat("sync", "--json", *flags)
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    assert (await sync())["new"] == 5 and sorted(composed) == sorted(DOCS)
    assert (await sync())["unchanged"] == 5 and composed == []
    async with pool.acquire() as conn:
        before = await conn.fetch("select id, xmin::text as x from public.docs_section order by id")
    full = await sync("--full")
    assert sorted(composed) == sorted(DOCS)
    assert (full["unchanged"], full["new"], full["changed"], full["deleted"]) == (5, 0, 0, 0)
    async with pool.acquire() as conn:  # not one row written
        assert await conn.fetch("select id, xmin::text as x from public.docs_section order by id") == before


async def test_sync_flags_that_move_the_environment_source_are_refused_with_a_config_file(
    cli_env, pool, tmp_path, monkeypatch
) -> None:
    """--repo/--branch/--docs-dir made one source "docs" out of the environment; the sync then took it
    for the whole configuration and deleted every configured source's rows, exit 0."""
    config = tmp_path / "config" / "docschat.toml"  # not ./docschat.toml, which is found unasked
    config.parent.mkdir()
    config.write_text(f'[[sources]]\nname = "handbook"\nrepo = "{cli_env}"\n')
    monkeypatch.setenv("DOCSCHAT_CONFIG", str(config))
    assert (await docschat("sync")).exit_code == 0
    for flags in (["--branch", "main"], ["--repo", str(cli_env)], ["--docs-dir", "docs"]):
        result = await docschat("sync", *flags)
        assert result.exit_code == 2, result.output
        assert f"the sources come from {config}" in " ".join(result.output.split())
    assert (await docschat("compose", "--branch", "main", "--json")).exit_code == 0  # it only reads
    demo = await docschat("demo", "--no-serve")  # its "docs" would take the file's sources' place
    assert demo.exit_code == 2 and f"the sources come from {config}" in " ".join(demo.output.split())
    monkeypatch.delenv("DOCSCHAT_CONFIG")
    demo = await docschat("demo", "--no-serve")
    assert demo.exit_code == 0, demo.output  # this repository's docs/, alone
    async with pool.acquire() as conn:  # and the rows of the other source stay
        assert await conn.fetchval("select count(*) from public.docs_section where source = 'handbook'") == 5


async def test_globs_that_match_no_page_fail_the_source_and_keep_its_rows(cli_env, pool, monkeypatch) -> None:
    """A typo in DOCS_INCLUDE/DOCS_EXCLUDE composed zero pages, which the sync took for "every page
    was deleted": all rows gone, exit 0."""
    assert (await docschat("sync")).exit_code == 0
    for name, value in (("DOCS_EXCLUDE", "**"), ("DOCS_INCLUDE", "**/*.markdown")):
        monkeypatch.setenv(name, value)
        result = await docschat("sync")
        monkeypatch.delenv(name)
        assert result.exit_code == 1, result.output
        assert "is a page of source 'docs'" in " ".join(result.output.split())
        async with pool.acquire() as conn:
            assert await conn.fetchval("select count(*) from public.docs_section") == 5


async def test_a_page_that_cannot_be_read_fails_the_sync_loudly(cli_env, pool) -> None:
    """Its rows go (a page whose front matter is unreadable may have been made internal in that very
    edit: keeping its old rows could show it to the public), but the sync exits 1 naming it, so a
    CI job notices; the other pages are synced."""
    assert (await docschat("sync")).exit_code == 0
    write_files(cli_env / "docs", {"widget.mdx": "---\ntitle: [Chat widget\npublic: true\n---\nBroken.\n",
                                   "sync.mdx": DOCS["sync.mdx"].replace("after every merge", "after each merge")})
    commit_all(cli_env, "a typo in front matter")
    result = await docschat("sync", "--json")
    assert result.exit_code == 1
    summary = json.loads(result.stdout)
    assert summary["sources"][0]["skipped_pages"] == ["widget.mdx"] and summary["changed"] == 1
    stderr = " ".join(result.stderr.split())
    assert "widget.mdx:3: invalid YAML front matter" in stderr
    assert "pages that could not be read (not in the index until fixed): docs:widget.mdx" in stderr
    async with pool.acquire() as conn:
        assert await conn.fetchval("select count(*) from public.docs_section where page = 'widget.mdx'") == 0
    status = await docschat("status")  # the job is recorded "ok"; status still names the page
    assert "could not be read (not in the index): widget.mdx" in " ".join(status.output.split())


async def test_text_from_the_docs_is_printed_as_it_is_not_as_markup(cli_env, pool) -> None:
    """Titles, paths and messages went through Rich markup: `[/]` raised MarkupError (one page title
    broke `search` for every question finding it) and `[slug]` vanished from a warning."""
    write_files(cli_env / "docs", {
        "slices.mdx": "---\ntitle: Slices [/] and [bold]ranges\npublic: true\n---\nThe platypus slices lists.\n",
        "[slug]/page.mdx": "---\ntitle: [broken\n---\nText.\n",
    })
    commit_all(cli_env, "pages with brackets")
    synced = await docschat("sync")
    assert synced.exit_code == 1  # the broken page, named as it is
    assert "warning: docs: [slug]/page.mdx:3: invalid YAML front matter" in " ".join(synced.output.split())
    found = await docschat("search", "platypus slices", "--explain")
    assert found.exit_code == 0, found.output
    assert "Slices [/] and [bold]ranges" in found.output
    async with pool.acquire() as conn:  # escaped markup doubled a trailing backslash in a table cell
        await conn.fetchval("select public.record_docs_chat_gap('why is C:\\', null, 0.1, true)")
    gaps = await docschat("gaps")
    assert gaps.exit_code == 0 and "why is C:\\" in gaps.output and "C:\\\\" not in gaps.output


async def test_downgrade_asks_first_and_an_unknown_revision_is_one_line(cli_env, pool) -> None:
    """`db downgrade base` dropped every table without asking (index clear asks); a typo in a
    revision ended in alembic's traceback."""
    assert (await docschat("sync")).exit_code == 0
    declined = await docschat("db", "downgrade", "base", input="n\n")
    assert declined.exit_code == 1 and "drop every docschat table" in declined.output
    assert "nothing changed" in declined.output
    async with pool.acquire() as conn:
        assert await conn.fetchval("select count(*) from public.docs_section") == 5
    for command in (("db", "upgrade", "zzz"), ("db", "downgrade", "zzz", "--yes")):
        typo = await docschat(*command)
        assert typo.exit_code == 1 and "cannot migrate to 'zzz'" in typo.output, typo.output
        assert typo.exception is None or isinstance(typo.exception, SystemExit)


async def test_operator_options_with_values_that_mean_nothing_are_refused(cli_env, pool) -> None:
    """`--audience ""` searched every audience (`--audience "$AUD"` with AUD unset failed open);
    --port 70000 ended in an OverflowError traceback, --port 0 silently bound 8000; a --since of
    5,000 digits, in a ValueError traceback."""
    assert (await docschat("sync")).exit_code == 0
    for command in (("search", "restart the workers", "--audience", ""), ("ask", "restart?", "--audience", " , "),
                    ("search", "restart the workers", "--audience", "\n\t")):
        result = await docschat(*command)
        assert result.exit_code == 2 and "--audience" in result.output and "is empty" in result.output
        assert "Restart the workers" not in result.output
    for port in ("0", "70000", "-1"):
        result = await docschat("serve", "--port", port)
        assert result.exit_code == 2 and "1<=x<=65535" in result.output, result.output
    result = await docschat("gaps", "--since", "9" * 5000 + "d")
    assert result.exit_code == 2 and "--since must be" in result.output


def test_a_dotenv_or_home_that_cannot_be_used_is_one_line_naming_it(tmp_path, monkeypatch) -> None:
    """A .env with a byte that is not UTF-8, or a DOCSCHAT_HOME that is a file, ended in a traceback
    (UnicodeDecodeError, NotADirectoryError) that named neither."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_bytes(b"LOG_LEVEL=info\nCHAT_MODEL=caf\xe9\n")
    get_settings.cache_clear()
    result = CliRunner().invoke(main, ["status"])
    assert result.exit_code == 1 and ".env is not UTF-8 text" in result.output, result.output
    (tmp_path / ".env").unlink()
    (tmp_path / "home").write_text("a file")
    monkeypatch.setenv("DOCSCHAT_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    get_settings.cache_clear()
    result = CliRunner().invoke(main, ["db", "upgrade"])  # a command that makes the database
    assert result.exit_code == 1 and "DOCSCHAT_HOME: cannot create" in result.output, result.output
    get_settings.cache_clear()


def test_a_failure_asked_for_as_json_is_json_on_stdout(tmp_path, monkeypatch) -> None:
    """With --json a script reads stdout; a failure left it empty (the message went to stderr only)."""
    result = CliRunner().invoke(main, ["eval", str(tmp_path / "missing.jsonl"), "--json"])
    assert result.exit_code == 1 and "cannot read" in json.loads(result.stdout)["error"]
    monkeypatch.setenv("LEG_MATCH_COUNT", "0")
    get_settings.cache_clear()
    result = CliRunner().invoke(main, ["status", "--json"])
    assert result.exit_code == 1 and json.loads(result.stdout)["error"].startswith("invalid setting: LEG_MATCH_COUNT")
    assert CliRunner().invoke(main, ["status", "--help"]).exit_code == 0  # help, whatever the settings say
    monkeypatch.delenv("LEG_MATCH_COUNT")
    get_settings.cache_clear()
    result = CliRunner().invoke(main, ["search", "x", "--mode", "bogus", "--json"])  # click's own usage errors
    assert result.exit_code == 2 and "'bogus' is not one of" in json.loads(result.stdout)["error"]
    get_settings.cache_clear()


class _LookUps:
    """Counts the claim's look-ups of the running job (app.indexing.jobs.running_job, run for real):
    the claim releases its pooled connection after each one, and the pool's reset statement then
    replaces the look-up as that backend's last query, so pg_stat_activity shows it only by luck."""

    def __init__(self, monkeypatch) -> None:
        import app.indexing.jobs as jobs

        self.count = 0
        real = jobs.running_job

        async def counted(conn):
            found = await real(conn)
            self.count += 1
            return found

        monkeypatch.setattr(jobs, "running_job", counted)

    async def until_one_more(self, seen: int) -> None:
        deadline = asyncio.get_running_loop().time() + 30
        while self.count <= seen:
            assert asyncio.get_running_loop().time() < deadline, "the claim never looked for the running job"
            await asyncio.sleep(0.01)


async def test_a_refused_claim_names_the_job_that_won_or_takes_the_lock_once_free(cli_env, pool, monkeypatch) -> None:
    """The winner takes the lock, reads each branch head (git), then writes its rows: a claim refused
    in between named no job (HTTP 409 with "job": null; the console could not follow it), and a
    scheduler re-check that found nothing to do refused a reindex the same way."""
    import uuid

    from app.indexing.jobs import SyncJobBusy, claim_sync_job, run_sync_job

    settings = get_settings()
    winner = uuid.uuid4()
    async with pool.acquire() as holder:
        assert await holder.fetchval("select public.docs_lease_take($1, $2, 60)", SYNC_LEASE, winner)
        look_ups = _LookUps(monkeypatch)
        claim = asyncio.create_task(claim_sync_job(pool, settings, trigger="admin"))
        # The claim found the lock taken and no job recorded (the winner is still reading its branch
        # heads): it keeps trying instead of refusing with no job to name.
        await look_ups.until_one_more(0)
        assert not claim.done()
        await holder.execute("insert into public.docs_sync_run (job_id, source, trigger, state)"
                             " values ($1, 'docs', 'cli', 'queued')", winner)
        with pytest.raises(SyncJobBusy) as refused:
            await claim
        assert refused.value.running is not None and refused.value.running["id"] == str(winner)
        await holder.execute("delete from public.docs_sync_run")
        seen = look_ups.count
        claim = asyncio.create_task(claim_sync_job(pool, settings, trigger="admin"))
        await look_ups.until_one_more(seen)  # a re-check that plans nothing, then lets go
        assert not claim.done()
        await holder.fetchval("select public.docs_lease_release($1, $2)", SYNC_LEASE, winner)
    outcome = await run_sync_job(await claim, settings, None)
    assert outcome.view["state"] == "ok"


async def test_status_says_when_a_sync_was_killed_before_it_finished(cli_env, pool) -> None:
    """After `kill -9` of a sync, status showed no running job and the sync before it, as if
    nothing had happened, until the next job marked the rows interrupted."""
    import uuid

    assert (await docschat("sync")).exit_code == 0
    killed = uuid.uuid4()
    async with pool.acquire() as conn:  # what a killed job leaves: its rows running, no lock held
        await conn.execute("insert into public.docs_sync_run (job_id, source, trigger, state)"
                           " values ($1, 'docs', 'cli', 'running')", killed)
    result = await docschat("status", "--json")
    assert json.loads(result.stdout)["interrupted_job"]["id"] == str(killed)
    text = await docschat("status")
    assert f"interrupted: sync job {killed} (cli," in " ".join(text.output.split())
    assert (await docschat("sync")).exit_code == 0  # the next job marks it
    assert json.loads((await docschat("status", "--json")).stdout)["interrupted_job"] is None


async def test_eval_json_with_a_lone_surrogate_in_a_question_is_valid_json(cli_env, pool, tmp_path) -> None:
    """json.dumps(ensure_ascii=False) kept the surrogate, and writing it raised UnicodeEncodeError."""
    assert (await docschat("sync")).exit_code == 0
    questions = tmp_path / "q.jsonl"
    questions.write_text('{"question": "restart the workers \\ud800", "gold": ["http://127.0.0.1:8000/docs/runbook"]}\n')
    result = await docschat("eval", str(questions), "--mode", "keyword", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["per_question"][0]["question"] == "restart the workers \ud800"


async def test_gaps_show_each_outcome_and_list_one_outcome(cli_env, pool) -> None:
    """What the docs lack: `docschat gaps` says what became of each question, and `--outcome`
    lists those of one kind (issue 31)."""
    record = "select public.record_docs_chat_gap($1, null, $2, $3, 90, $4)"
    async with pool.acquire() as conn:
        await conn.fetchval(record, "Does the Batch API support streaming?", 0.7, True, "refused_indomain")
        await conn.fetchval(record, "What is the capital of France?", 0.1, True, "refused_offtopic")
        await conn.fetchval(record, "Are answers kept for 24 months?", 0.7, False, "partly")
    listed = await docschat("gaps", "--json")
    assert listed.exit_code == 0, listed.output
    outcomes = {json.loads(line)["question"]: json.loads(line)["outcome"] for line in listed.output.splitlines()}
    assert outcomes == {"Does the Batch API support streaming?": "refused_indomain",
                        "What is the capital of France?": "refused_offtopic",
                        "Are answers kept for 24 months?": "partly"}
    lacking = await docschat("gaps", "--json", "--outcome", "refused_indomain", "--outcome", "partly")
    assert lacking.exit_code == 0, lacking.output
    assert sorted(json.loads(line)["outcome"] for line in lacking.output.splitlines()) == ["partly", "refused_indomain"]
    table = await docschat("gaps", "--outcome", "refused_indomain")
    assert table.exit_code == 0 and "outcome" in table.output and "Batch API" in table.output
    assert "France" not in table.output
    wrong = await docschat("gaps", "--outcome", "maybe")
    assert wrong.exit_code == 2 and "maybe" in wrong.output
    both = await docschat("gaps", "--clear", "--outcome", "partly")
    assert both.exit_code == 2 and "--since only" in both.output
