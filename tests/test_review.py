"""`docschat check` on real git repositories: a branch that publishes an internal page, renames a
heading, imports a snippet that does not exist, hides text, and moves what saved questions find.
Every item is reported, and no hidden or internal text reaches the report."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from app.cli import main
from app.config import get_settings
from app.corpus.sources import Source
from app.review.check import changed_page_urls
from app.review.compose_adapter import compose_ref, read_warning
from tests.helpers import commit_all, git, make_docs_repo, write_files

REPO_ROOT = Path(__file__).resolve().parent.parent
# Words of hidden text (comments) and of an internal page: none may appear in any report.
HIDDEN = "QX7HIDDENMARK"
INTERNAL = "ZK4INTERNALWORD"

BASE = {
    "index.mdx": "---\ntitle: Home\naudience: public\n---\n\n# Home\n\nStart with the [install guide](/docs/guide#install), "
                 "read [the FAQ](faq) and [billing](/docs/faq#billing).\n\n## Welcome\n\nWelcome to Acme widgets.\n",
    "guide.mdx": "---\ntitle: Guide\naudience: public\n---\n\n## Install\n\nRun the Acme installer, then paste the "
                 "widget token in the settings page and press save. It takes a minute.\n\n## Configure\n\n"
                 "Edit acme.toml to choose the widget colour.\n",
    "faq.mdx": "---\ntitle: FAQ\naudience: public\n---\n\n## Billing\n\nRefunds are paid back within 30 days of a "
               "cancelled subscription; invoices are emailed monthly.\n\n## Support\n\nWrite to support.\n",
    "setup.mdx": f"---\ntitle: Setup\naudience: internal\n---\n\n## Rotation\n\nThe {INTERNAL} admin password "
                 "rotates weekly.\n",
    "notes.mdx": f"---\naudience: internal\n---\n\n# Notes\n\nRelease notes draft: {INTERNAL} ships in June.\n",
    # Internal at both revisions: its headings and link targets are its words.
    "ops.mdx": f"---\naudience: internal\n---\n\n# Ops\n\n## {INTERNAL} rotation\n\nRotate keys.\n",
    # A snippet already missing at the base: not this change's doing, not reported.
    "old.mdx": "---\naudience: public\n---\nimport Old from '/snippets/old.mdx'\n\n# Old\n\n<Old />\n",
}


def head_files() -> dict[str, str]:
    files = dict(BASE)
    # made public by its front matter (line 3)
    files["setup.mdx"] = BASE["setup.mdx"].replace("audience: internal", "audience: public")
    # made public by the source's default: its declaration is gone
    files["notes.mdx"] = BASE["notes.mdx"].replace("---\naudience: internal\n---\n\n", "")
    # a heading renamed (same section), a snippet that does not exist, hidden text
    files["guide.mdx"] = (BASE["guide.mdx"].replace("## Install", "## Installation")
                          .replace("---\n\n## Installation", "---\nimport Plan from '/snippets/plan.mdx'\n\n"
                                   f"{{/* {HIDDEN} the roadmap */}}\n\n"
                                   # an import inside a comment is a comment: not looked up, never named
                                   f"{{/*\nimport Road from '/snippets/{HIDDEN}-roadmap.mdx'\n*/}}\n\n## Installation")
                          + f"\n<Plan />\n\n{{/* {HIDDEN} */}}\n")
    # an HTML comment never closed: MDX 3 refuses the page (as the site's build would), and the
    # report names the page, never what the comment hides
    files["draft.mdx"] = f"---\ntitle: Draft\naudience: public\n---\n\n# Draft\n\n<!-- {HIDDEN} never closed\n\nmore\n"
    files["ops.mdx"] = (BASE["ops.mdx"].replace(f"## {INTERNAL} rotation", "## Rotation")
                        + f"\nSee [the runbook](/docs/{INTERNAL}-runbook).\n")
    # a front-matter key written twice: YAML keeps the last, compose keeps the page internal and warns
    files["dup.mdx"] = "---\naudience: public\ntitle: Dup\naudience: public\n---\n\n# Dup\n\nTwice.\n"
    # refunds move to a page of their own: questions about them retrieve another page
    files["faq.mdx"] = BASE["faq.mdx"].replace(
        "## Billing\n\nRefunds are paid back within 30 days of a cancelled subscription; invoices are emailed "
        "monthly.\n\n", "See [the billing page](billing).\n\n")
    files["billing.mdx"] = ("---\ntitle: Billing\naudience: public\n---\n\n## Refunds\n\nRefunds are paid back "
                            "within 30 days of a cancelled subscription; invoices are emailed monthly.\n\n"
                            "## Export\n\nExport invoices as CSV from the billing page.\n")
    return files


CONFIG = """\
[[sources]]
name = "docs"
repo = "repo"
dir = "docs"
audience = "public"
"""


@pytest.fixture
def review_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp_path/repo on main with BASE, branch `change` with head_files(); docschat.toml in the
    working directory (tmp_path) names it, its undeclared pages public."""
    repo = make_docs_repo(tmp_path / "repo", BASE)
    git(repo, "checkout", "-q", "-b", "change")
    write_files(repo / "docs", head_files())
    commit_all(repo, "change")
    git(repo, "checkout", "-q", "main")
    (tmp_path / "docschat.toml").write_text(CONFIG, encoding="utf-8")
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    get_settings.cache_clear()
    return repo


def check(*args: str) -> tuple[int, str]:
    get_settings.cache_clear()
    result = CliRunner().invoke(main, ["check", *args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout


def test_every_item_of_the_change_is_reported(review_repo: Path) -> None:
    code, out = check("--base", "main", "--head", "change", "--json")
    report = json.loads(out)
    assert code == 1 and report["failed"] == ["public", "snippet"]

    audiences = {(a["page"], a["flagged"]): a for a in report["audiences"]}
    assert set(audiences) == {("setup.mdx", True), ("notes.mdx", True), ("billing.mdx", False)}
    assert audiences[("setup.mdx", True)]["decided_by"] == "docs/setup.mdx:3"
    config_line = audiences[("notes.mdx", True)]["decided_by"]
    assert config_line.endswith("docschat.toml:5")  # the source's `audience = "public"`
    assert [a["severity"] for a in report["audiences"]] == [3, 3, 1]  # worst first

    assert [(w["kind"], w["page"]) for w in report["warnings"] if w["kind"] != "snippet_unresolved"] == [
        ("front_matter_duplicate_key", "dup.mdx"), ("parser_rejected", "draft.mdx")]
    snippet = [w for w in report["warnings"] if w["kind"] == "snippet_unresolved"]  # old.mdx's is the base's
    # one: plan.mdx; the import written inside a comment is not one (read from the MDX tree)
    assert snippet == [{"kind": "snippet_unresolved", "source": "docs", "page": "guide.mdx", "line": None,
                            "detail": None}]

    anchors = {(a["page"], a["anchor"]): a["renamed_to"] for a in report["anchors"]}
    assert anchors == {("guide.mdx", "install"): "installation", ("faq.mdx", "billing"): None,
                       ("ops.mdx", "(internal page)"): None}
    # "#billing" is no longer on the FAQ (the section is now "Support" only), "#install" renamed
    links = {(link["page"], link["target"], link["was"]) for link in report["links"]}
    assert links == {("index.mdx", "/docs/guide#install", "resolved"), ("index.mdx", "/docs/faq#billing", "resolved"),
                     ("ops.mdx", "(internal page)", "new")}

    size = report["size"]
    assert (size["pages_added"], size["pages_removed"]) == (2, 0)
    assert size["pages_changed"] == 5  # setup and notes (audience), guide, faq, ops
    assert size["chunks_added"] >= 3 and size["chunks_removed"] >= 2
    # Two chunks of the change keep their text (setup's, notes' overview): only metadata changes.
    assert size["pages_composed_at_head"] == 7  # index and old were taken from the base unchanged


def test_no_hidden_or_internal_text_in_any_report(review_repo: Path) -> None:
    for args in ([], ["--json"], ["--fail-on", "none"]):
        code, out = check("--head", "change", *args)
        assert out.strip()
        assert HIDDEN not in out and "roadmap" not in out and "never closed" not in out.lower()
        # an internal page's words, in its body, its headings (anchors) or its links (lower case in slugs)
        assert INTERNAL.lower() not in out.lower() and "password" not in out
    report = json.loads(check("--head", "change", "--json")[1])
    assert [(a["page"], a["anchor"]) for a in report["anchors"] if a["internal"]] == [("ops.mdx", "(internal page)")]
    assert [(x["page"], x["target"]) for x in report["links"] if x["internal"]] == [("ops.mdx", "(internal page)")]
    assert any("withheld" in note for note in report["notes"])
    # Asked for, they are named (an internal docs team's own report)
    named = check("--head", "change", "--show-internal")[1]
    assert f"`#{INTERNAL.lower()}-rotation`" in named and f"`/docs/{INTERNAL}-runbook`" in named


def test_markdown_report_names_each_item(review_repo: Path) -> None:
    code, out = check("--head", "change")
    assert code == 1
    assert out.startswith("## docschat check: `main` → `change`")
    assert "**Flagged:** public (2), snippet (1)" in out
    assert "| `setup.mdx` | internal | public | ⚠️ made public | `docs/setup.mdx:3` |" in out
    assert "| ⚠️ snippet import that does not resolve | `guide.mdx` | — |" in out
    assert "| `guide.mdx` | `#install` | renamed to `#installation` | — |" in out
    assert "| `index.mdx` | `/docs/guide#install` | resolved at the base |" in out
    assert "- pages: 2 added, 5 changed, 0 removed" in out
    assert "| ⚠️ front-matter key written twice | `dup.mdx` | — |" in out


def test_fail_on_decides_the_exit_code(review_repo: Path) -> None:
    assert check("--head", "change", "--fail-on", "none")[0] == 0
    assert check("--head", "change", "--fail-on", "link")[0] == 1
    assert check("--head", "change", "--fail-on", "hidden")[0] == 1  # dup.mdx's key written twice
    assert check("--head", "change", "--fail-on", "cited")[0] == 0  # no database: nothing cited
    code, out = check("--head", "main", "--fail-on", "all")
    assert code == 0 and "Nothing flagged" in out and "No page changed audience." in out
    result = CliRunner().invoke(main, ["check", "--head", "change", "--fail-on", "public,typo"])
    assert result.exit_code == 2 and "unknown flag 'typo'" in result.output


def test_an_unknown_revision_is_one_clear_error(review_repo: Path) -> None:
    code, out = check("--head", "no-such-branch", "--json")
    assert code == 1 and "no-such-branch" in json.loads(out)["error"]


def test_warnings_are_read_as_kind_and_place_never_their_words() -> None:
    raw = f"guide.mdx: snippet '/snippets/{HIDDEN}.mdx' imported as Plan not found"
    assert read_warning(raw, "docs").identity() == ("snippet_unresolved", "docs", "guide.mdx", None)
    unknown = read_warning(f"a.mdx:12: something new about {HIDDEN}", "docs")
    assert (unknown.kind, unknown.page, unknown.line, unknown.detail) == ("other", "a.mdx", 12, None)
    # A kind the new parser may add, worded as it likes, and a structured record, taken as they are.
    assert read_warning(f"b.md:4: HTML comment never closed: {HIDDEN}", "docs").kind == "unclosed_comment"
    assert read_warning("b.mdx:9: unknown component <Foo>", "docs").kind == "unknown_component"
    rejected = read_warning(f"c.mdx: the page's parser rejects it (Unexpected `{HIDDEN}`); page skipped", "docs")
    assert (rejected.kind, rejected.page, rejected.detail) == ("parser_rejected", "c.mdx", None)
    record = read_warning({"kind": "duplicated_key", "page": "c.md", "line": 2, "message": HIDDEN}, "docs")
    assert (record.kind, record.page, record.line, record.detail) == ("duplicated_key", "c.md", 2, None)


def test_review_reads_the_composer_through_its_adapter_only() -> None:
    from tests.test_architecture import import_graph

    wrong = {(module, target) for module, targets in import_graph().items() if module.startswith("app.review")
             for target in targets if target.startswith("app.corpus") and module != "app.review.compose_adapter"}
    assert not wrong


# --- the pull-request workflow, as far as it runs here --------------------------------------------

WORKFLOW = REPO_ROOT / ".github" / "workflows" / "docs-check.yml"


def _workflow_step(name: str) -> dict:
    steps = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"]["check"]["steps"]
    return next(step for step in steps if step.get("name") == name)


def test_the_workflow_runs_on_docs_pull_requests() -> None:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    trigger = workflow[True] if True in workflow else workflow["on"]  # YAML 1.1 reads `on` as true
    assert "docs/**" in trigger["pull_request"]["paths"]
    assert workflow["permissions"] == {"contents": "read", "pull-requests": "write"}


@pytest.mark.parametrize("branch, expected", [("change", 1), ("main", 0)])
def test_the_workflow_step_writes_the_summary_and_fails_on_a_flag(
    review_repo: Path, tmp_path: Path, branch: str, expected: int
) -> None:
    """The step's own script, run by bash as the runner runs it: the report lands in the job
    summary, the exit code is the check's, and the report file is there for the comment step."""
    step = _workflow_step("docschat check")
    summary = tmp_path / "summary.md"
    env = {**os.environ, "GITHUB_STEP_SUMMARY": str(summary), "BASE_REF": "main", "HEAD_REF": branch,
           "RUNNER_TEMP": str(tmp_path), "PYTHONPATH": str(REPO_ROOT), "EMBEDDING_PROVIDER": "none",
           "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    env.pop("DATABASE_URL", None)
    done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", step["run"]], cwd=review_repo.parent, env=env,
                          capture_output=True, text=True)
    assert done.returncode == expected, done.stderr
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("## docschat check: `main` →")
    assert (tmp_path / "docschat-check.md").read_text(encoding="utf-8") == text
    assert ("⚠️ made public" in text) == (expected == 1)
    assert HIDDEN not in text and INTERNAL not in text


# --- with a database: citations, questions and gaps ------------------------------------------------

QUESTIONS = [
    {"id": "refunds", "question": "How long until refunds are paid back?",
     "gold": ["http://127.0.0.1:8000/docs/faq#billing"]},
    {"id": "colour", "question": "How do I choose the widget colour?",
     "gold": ["http://127.0.0.1:8000/docs/guide#configure"]},
]


def _markdown(data: dict) -> str:
    """The Markdown of a JSON report, rendered again (the --json run is the one asked)."""
    from app.review.model import AnchorChange, Report

    report = Report(data["base"], data["head"], anchors=[AnchorChange(**a) for a in data["anchors"]])
    from app.review.render import markdown

    return markdown(report)


async def _scratch_databases(conn) -> list[str]:
    return [r["datname"] for r in await conn.fetch(
        "select datname from pg_catalog.pg_database where datname like 'docschat_check_%'")]


async def test_questions_citations_and_gaps_without_touching_the_live_index(
    review_repo: Path, tmp_path: Path, owner_database_url: str, pool, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio
    import uuid

    monkeypatch.setenv("DATABASE_URL", owner_database_url)  # the owner may create the scratch database
    async with pool.acquire() as conn:
        session = uuid.uuid4()
        await conn.execute("insert into public.docs_chat_session (id) values ($1)", session)
        await conn.execute(
            "insert into public.docs_chat_message (session_id, role, content, sources) values"
            " ($1, 'assistant', 'answer', $2::jsonb), ($1, 'assistant', 'again', $2::jsonb)", session,
            json.dumps([{"title": "Guide", "url": "http://127.0.0.1:8000/docs/guide#install", "heading": "Install"}]))
        await conn.execute(
            "insert into public.docs_chat_gap (question_key, question, count, best_page, confidence, refused, outcome)"
            " values ('k1', 'How do I export invoices as CSV?', 7, 'faq.mdx', 0.1, true, 'refused_indomain'),"
            " ('k2', 'Can I pay with bitcoin?', 3, null, 0.1, true, 'refused_offtopic')")
        sections_before = await conn.fetchval("select count(*) from public.docs_section")
    questions = tmp_path / "questions.jsonl"
    questions.write_text("\n".join(json.dumps(q) for q in QUESTIONS) + "\n", encoding="utf-8")

    code, out = await asyncio.to_thread(check, "--head", "change", "--questions", str(questions), "--json",
                                        "--fail-on", "cited,question")
    report = json.loads(out)
    assert code == 1 and report["failed"] == ["cited", "question"]
    cited = {a["anchor"]: a["cited_by"] for a in report["anchors"]}
    assert cited["install"] == {"answers": 2} and cited["billing"] == {"gaps on its page": 1}
    assert "| `guide.mdx` | `#install` | renamed to `#installation` | answers: 2 |" in _markdown(report)
    by_id = {q["id"]: q for q in report["questions"]}
    assert by_id["refunds"]["changed"] and "http://127.0.0.1:8000/docs/billing" in by_id["refunds"]["pages_gained"]
    assert not by_id["colour"]["changed"]
    assert by_id["colour"]["before"]["pages"][0] == "http://127.0.0.1:8000/docs/guide"

    code, out = await asyncio.to_thread(check, "--head", "change", "--fail-on", "none")
    assert code == 0
    assert "Frequent recent gaps the head may now answer (their questions are not quoted" in out and "| — | 7 | refused_indomain | refused → " in out and "`/docs/billing`" in out
    assert "export invoices" not in out and "bitcoin" not in out  # visitors' words, unless asked
    code, out = await asyncio.to_thread(check, "--head", "change", "--gaps", "0", "--json")
    assert json.loads(out)["gaps"] == [] and json.loads(out)["anchors"]  # citations still read
    code, out = await asyncio.to_thread(check, "--head", "change", "--show-gap-questions", "--json")
    gaps = json.loads(out)["gaps"]
    assert [(g["question"], g["changed_pages"]) for g in gaps] == [
        ("How do I export invoices as CSV?", ["http://127.0.0.1:8000/docs/billing"])]

    async with pool.acquire() as conn:
        assert await conn.fetchval("select count(*) from public.docs_section") == sections_before
        assert await conn.fetchval("select count(*) from public.docs_sync_run") == 0
        assert await _scratch_databases(conn) == []


# --- a real corpus: a copy of the shared mintlify docs ---------------------------------------------

def _mintlify() -> Path:
    from tests.conftest import SHARED

    return Path(os.environ.get("SHARED_DIR") or SHARED) / "corpora" / "mintlify-docs"


@pytest.mark.slow
@pytest.mark.skipif(not _mintlify().is_dir(), reason="the shared mintlify-docs corpus is not present (SHARED_DIR)")
async def test_a_change_to_the_mintlify_docs_is_reported_whole(
    tmp_path: Path, owner_database_url: str, pool, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    from tests.helpers import copy_tree_as_repo

    repo = copy_tree_as_repo(_mintlify(), tmp_path / "mintlify")
    git(repo, "checkout", "-q", "-b", "change")
    docs = repo / "docs"
    quickstart = docs / "quickstart.mdx"
    text = quickstart.read_text(encoding="utf-8")
    quickstart.write_text(text.replace('title: "Quickstart"\n', 'title: "Quickstart"\naudience: public\n', 1)
                          .replace("## Before you begin", "## Before you start", 1), encoding="utf-8")
    index = docs / "index.mdx"
    body = index.read_text(encoding="utf-8")
    end = body.index("\n---", 3) + 4
    index.write_text(body[:end] + '\nimport Gone from "/snippets/gone-away.mdx";\n\n'
                     f"{{/* {HIDDEN} launch plans */}}\n\n<Gone />\n" + body[end:], encoding="utf-8")
    domain = docs / "customize" / "custom-domain.mdx"
    front = domain.read_text(encoding="utf-8")
    domain.write_text(front[: front.index("\n---", 3) + 4] + "\nThis page moved to the hosting guide.\n",
                      encoding="utf-8")
    commit_all(repo, "change")
    git(repo, "checkout", "-q", "main")
    questions = tmp_path / "questions.jsonl"
    questions.write_text(json.dumps({"question": "How do I configure DNS for my custom domain?",
                                     "gold": ["http://127.0.0.1:8000/docs/customize/custom-domain"]}) + "\n")
    monkeypatch.setenv("DOCS_REPO", str(repo))
    monkeypatch.setenv("DATABASE_URL", owner_database_url)
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")

    # The corpus declares no audience: its pages are internal, their anchors named when asked.
    code, out = await asyncio.to_thread(check, "--head", "change", "--questions", str(questions), "--json",
                                        "--show-internal")
    report = json.loads(out)
    assert code == 1 and report["failed"] == ["public", "snippet"]
    made_public = [a for a in report["audiences"] if a["flagged"]]
    assert [(a["page"], a["decided_by"]) for a in made_public] == [("quickstart.mdx", "docs/quickstart.mdx:3")]
    assert [(w["kind"], w["page"], w["detail"]) for w in report["warnings"]] == [
        ("snippet_unresolved", "index.mdx", None)]
    renamed = {(a["page"], a["anchor"]): a["renamed_to"] for a in report["anchors"]}
    assert renamed[("quickstart.mdx", "before-you-begin")] == "before-you-start"
    assert renamed[("customize/custom-domain.mdx", "configure-your-dns")] is None
    assert report["questions"][0]["changed"]
    assert "http://127.0.0.1:8000/docs/customize/custom-domain" in report["questions"][0]["pages_lost"]
    # index.mdx shows the same text (the comment is hidden, the import and the tag show nothing)
    assert report["size"]["pages_changed"] == 2 and report["size"]["pages_composed_at_head"] == 3
    markdown_out = (await asyncio.to_thread(check, "--head", "change"))[1]
    if os.environ.get("REVIEW_EXAMPLE"):
        Path(os.environ["REVIEW_EXAMPLE"]).write_text(markdown_out, encoding="utf-8")
    for out in (json.dumps(report), markdown_out):
        assert HIDDEN not in out and "launch plans" not in out
    assert "configure-your-dns" not in markdown_out and "| `customize/custom-domain.mdx` | (internal page) |" in markdown_out
    assert "`#before-you-begin` | renamed to `#before-you-start`" in markdown_out  # public at the head


async def test_a_role_that_may_not_create_the_scratch_database_is_told_so(
    review_repo: Path, tmp_path: Path, owner_database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio
    import uuid
    from urllib.parse import urlsplit, urlunsplit

    import asyncpg

    role, password = "docschat_review_" + uuid.uuid4().hex[:8], uuid.uuid4().hex
    admin = await asyncpg.connect(owner_database_url)
    try:  # both generated from hex digits: safe in DDL, which takes no bind parameters
        await admin.execute(f"create role {role} login password '{password}' nocreatedb nosuperuser")
        parts = urlsplit(owner_database_url)
        limited = urlunsplit(parts._replace(netloc=f"{role}:{password}@{parts.netloc.rsplit('@', 1)[-1]}"))
        monkeypatch.setenv("DATABASE_URL", limited)
        questions = tmp_path / "q.jsonl"
        questions.write_text(json.dumps(QUESTIONS[0]) + "\n", encoding="utf-8")
        code, out = await asyncio.to_thread(check, "--head", "change", "--questions", str(questions), "--json")
    finally:
        await admin.execute(f"drop role if exists {role}")
        await admin.close()
    error = json.loads(out)["error"]
    assert code == 1 and "may not create one" in error and "CREATEDB" in error and password not in error


def test_a_source_default_made_public_in_docschat_toml_is_flagged(tmp_path: Path, monkeypatch) -> None:
    """docschat.toml is read at each revision: a pull request that turns a source's default
    audience public publishes every page of it that declares none."""
    files = {"plain.mdx": "# Plain\n\nNo front matter here.\n",
             "declared.mdx": "---\naudience: internal\n---\n\n# Declared\n\nStays internal.\n"}
    repo = make_docs_repo(tmp_path / "site", files)
    (repo / "docschat.toml").write_text(CONFIG.replace('repo = "repo"', 'repo = "."')
                                        .replace('audience = "public"', 'audience = "internal"'))
    commit_all(repo, "config")
    git(repo, "checkout", "-q", "-b", "open-up")
    (repo / "docschat.toml").write_text(CONFIG.replace('repo = "repo"', 'repo = "."'))
    commit_all(repo, "default public")
    git(repo, "checkout", "-q", "main")  # the working tree's file still says internal
    monkeypatch.chdir(repo)
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    code, out = check("--head", "open-up", "--json")
    report = json.loads(out)
    assert code == 1 and report["failed"] == ["public"]
    assert [(a["page"], a["flagged"], a["decided_by"]) for a in report["audiences"]] == [
        ("plain.mdx", True, "docschat.toml:5")]
    assert not [n for n in report["notes"] if "working tree" in n]


async def test_questions_embed_only_what_the_change_changed(
    review_repo: Path, tmp_path: Path, owner_database_url: str, pool, fake_gemini, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The scratch database's sync of the base takes its vectors from the live index (an empty
    embedding cache here), so the only texts embedded are the head's new ones."""
    import asyncio

    monkeypatch.setenv("DATABASE_URL", owner_database_url)
    monkeypatch.setenv("EMBEDDING_PROVIDER", "gemini")
    get_settings.cache_clear()
    synced = await asyncio.to_thread(CliRunner().invoke, main, ["sync", "--json"])
    assert synced.exit_code == 0, synced.output
    monkeypatch.setenv("DOCSCHAT_HOME", str(tmp_path / "empty-home"))  # no cache: vectors come from the index
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps(QUESTIONS[0]) + "\n", encoding="utf-8")
    code, out = await asyncio.to_thread(check, "--head", "change", "--questions", str(questions), "--json",
                                        "--fail-on", "none")
    report = json.loads(out)
    async with pool.acquire() as conn:
        base_chunks = await conn.fetchval("select count(*) from public.docs_section where embedding is not null")
    size = report["size"]
    assert size["embedding_model"] == "gemini-embedding-001@768" and size["to_embed"] > 0
    note = next(n for n in report["notes"] if n.startswith("questions:"))
    assert (f"embedded 0 texts of the base ({base_chunks} vectors taken from the index) and {size['to_embed']} "
            "of the head") in note


def test_a_source_in_another_repository_is_read_at_its_own_branch(review_repo: Path, tmp_path: Path) -> None:
    """Two sources, the change in one repository: the other has no `change` branch and is read at
    its own branch at both revisions (its links still resolve), with a note."""
    other = make_docs_repo(tmp_path / "other", {"api.mdx": "---\naudience: public\n---\n\n## Tokens\n\nKeys.\n"})
    assert other.is_dir()
    (tmp_path / "docschat.toml").write_text(CONFIG + '\n[[sources]]\nname = "api"\nrepo = "other"\ndir = "docs"\n'
                                            'url_prefix = "/api"\n', encoding="utf-8")
    code, out = check("--head", "change", "--json")
    report = json.loads(out)
    assert code == 1 and report["failed"] == ["public", "snippet"]
    assert any("source 'api'" in note and "own branch" in note for note in report["notes"])
    assert report["commits"]["api"]["base"] == report["commits"]["api"]["head"] == git(other, "rev-parse", "main").strip()
    assert {a["source"] for a in report["audiences"]} == {"docs"}
    code, out = check("--head", "nowhere", "--json")
    assert code == 1 and "nowhere" in json.loads(out)["error"]


def test_a_moved_page_is_told_from_a_removed_one(review_repo: Path) -> None:
    """guide.mdx renamed to setup/guide.mdx: its anchors are on the new page, the links to it break."""
    git(review_repo, "checkout", "-q", "-b", "move", "main")
    git(review_repo, "mv", "docs/guide.mdx", "docs/start.mdx")
    commit_all(review_repo, "move the guide")
    git(review_repo, "checkout", "-q", "main")
    code, out = check("--head", "move", "--json", "--fail-on", "anchor")
    report = json.loads(out)
    assert code == 1
    assert {(a["anchor"], a["moved_to"], a["renamed_to"]) for a in report["anchors"]} == {
        ("install", "start.mdx", "install"), ("configure", "start.mdx", "configure")}
    assert {link["target"] for link in report["links"]} == {"/docs/guide#install"}
    markdown_out = check("--head", "move")[1]
    assert "| `guide.mdx` | `#install` | page moved: `start.mdx` `#install` | — |" in markdown_out


def test_a_file_name_cannot_drive_the_terminal(review_repo: Path) -> None:
    git(review_repo, "checkout", "-q", "-b", "escape", "main")
    write_files(review_repo / "docs", {"red\x1b[31m.mdx": "---\naudience: public\n---\n\n# Red\n\nText.\n"})
    commit_all(review_repo, "a hostile name")
    git(review_repo, "checkout", "-q", "main")
    code, out = check("--head", "escape")
    assert code == 0 and "red\ufffd[31m.mdx" in out and "\x1b" not in out


def test_links_to_a_docusaurus_docs_instance_resolve_at_its_route(tmp_path: Path, monkeypatch) -> None:
    """A second docs instance is published under its routeBasePath (/pnpr/…, as pnpm.io's): a
    link to that URL reaches the page, and breaks when the change moves the page."""
    site = {"docusaurus.config.js": "module.exports = {presets: [['classic', {docs: {sidebarPath: false}}]], plugins: "
                                    "[['@docusaurus/plugin-content-docs', {id: 'pnpr', path: 'pnpr-docs', "
                                    "routeBasePath: 'pnpr', sidebarPath: false}]]};\n",
            "docs/intro.md": "---\ntitle: Intro\n---\n\nSee [the registry](/pnpr/start#run) and [install](./install.md).\n",
            "docs/install.md": "---\ntitle: Install\n---\n\nInstall it.\n",
            "pnpr-docs/start.md": "---\ntitle: Start\n---\n\n## Run\n\nRun the registry.\n"}
    repo = make_docs_repo(tmp_path / "repo", site)
    git(repo, "checkout", "-q", "-b", "move")
    git(repo, "mv", "docs/pnpr-docs/start.md", "docs/pnpr-docs/begin.md")
    commit_all(repo, "move the registry's start")
    git(repo, "checkout", "-q", "main")
    (tmp_path / "docschat.toml").write_text(CONFIG, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    code, out = check("--head", "move", "--json")
    assert {link["target"] for link in json.loads(out)["links"]} == {"/pnpr/start#run"}
    # The URL of a page the change changed is the one the site publishes it at.
    sources = [Source(name="docs", repo=repo, dir="docs", url_prefix="", base_url="https://pnpm.example")]
    base = compose_ref(sources, "main", get_settings())
    head = compose_ref(sources, "move", get_settings(), reuse=base)
    assert changed_page_urls(base, head, sources, "http://unused") == {"https://pnpm.example/pnpr/begin"}
