"""Sources, audiences and weights: several sources, each page for a declared audience, enforced in SQL."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from app.config import Settings, get_settings
from app.corpus.compose import compose_files
from app.corpus.sources import Source, SourcesConfig, load_sources
from app.embeddings.providers import get_embedding_provider
from app.errors import ConfigError
from app.indexing.sync import sync_sources
from app.indexing.sync_plan import ExistingRow, plan_sync
from app.search.retrieve import build_retriever
from tests.helpers import commit_all, docschat_in_process, make_docs_repo, write_files

SECRET = "zorblaxian"  # a word that exists only in an internal page
UNKNOWN = "quintarbol"  # a word that exists nowhere

PAGES = {
    "deploy.mdx": "---\ntitle: Deploying\naudience: public\n---\nDeploy the app with one command.\n\n"
                  "## Rollback\nRoll back a deploy from the dashboard.\n",
    "keys.mdx": "---\ntitle: API keys\naudience: public\n---\nCreate an API key in settings.\n\n"
                "## Rotate\nRotate a key when a teammate leaves.\n",
    "billing.mdx": "---\ntitle: Billing\npublic: true\n---\nInvoices are sent monthly.\n",
    "runbook.mdx": f"---\ntitle: Runbook\n---\nDeploy the {SECRET} cluster by hand.\n\n"
                   f"## Rollback\nRoll back the {SECRET} deploy with the ops script.\n",
    "team.mdx": "---\ntitle: Team notes\naudience: [developer, internal]\n---\nDeploy keys for developers.\n",
}


def _source(repo: Path, name: str = "docs", **kwargs) -> Source:
    return Source(name=name, repo=repo, branch="main", dir="docs", **kwargs)


async def _sync(pool, *sources: Source, boosts=(), provider=None, only=None):
    config = SourcesConfig(tuple(sources), tuple(boosts))
    return await sync_sources(pool, config, get_settings(), provider, only=only)


@pytest.fixture
def keyword_only(monkeypatch):
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    get_settings.cache_clear()


async def test_undeclared_pages_are_internal_and_sync_says_so(pool, keyword_only, tmp_path: Path) -> None:
    repo = make_docs_repo(tmp_path / "r", PAGES)
    report = await _sync(pool, _source(repo))
    async with pool.acquire() as conn:
        rows = {r["page"]: list(r["audiences"]) for r in await conn.fetch("select page, audiences from docs_section")}
    assert rows["runbook.mdx"] == ["internal"] and rows["billing.mdx"] == ["public"]
    assert rows["team.mdx"] == ["developer", "internal"] and rows["deploy.mdx"] == ["public"]
    assert report.sources[0].undeclared_pages == 1
    assert any("1 of 5 pages declare no audience" in w and "audience: public" in w for w in report.warnings)


async def test_secret_word_never_reaches_public_search_and_ranks_like_an_unknown_word(
    pool, keyword_only, tmp_path: Path
) -> None:
    repo = make_docs_repo(tmp_path / "r", PAGES)
    await _sync(pool, _source(repo))
    retriever = build_retriever(pool, get_settings())
    everyone = await retriever.retrieve(f"{SECRET} deploy rollback", mode="keyword")
    assert any(p.page == "runbook.mdx" for p in everyone.pages)  # the operator sees it
    public = await retriever.retrieve(f"{SECRET} deploy rollback", mode="keyword", audiences=["public"], explain=True)
    unknown = await retriever.retrieve(f"{UNKNOWN} deploy rollback", mode="keyword", audiences=["public"])
    assert all(SECRET not in h.content for hits in public.legs.values() for h in hits)
    assert [(h.id, h.score) for h in public.legs["keyword"]] == [(h.id, h.score) for h in unknown.legs["keyword"]]
    assert [(p.page, p.score) for p in public.pages] == [(p.page, p.score) for p in unknown.pages]
    assert {t["lexeme"]: t["ndoc"] for t in public.terms}["zorblaxian"] == 0
    secret_alone = await retriever.retrieve(SECRET, mode="keyword", audiences=["public"])
    assert secret_alone.pages == []


async def test_term_coverage_called_by_hand_returns_only_visible_sections(pool, keyword_only, tmp_path: Path) -> None:
    """docs_term_coverage filtered its statistics by `audiences` but returned any id it was given:
    from psql, '{public}' learned which words an internal section holds."""
    repo = make_docs_repo(tmp_path / "r", PAGES)
    await _sync(pool, _source(repo))
    ids = ["docs:runbook.mdx", "docs:runbook.mdx#rollback", "docs:deploy.mdx#rollback"]
    async with pool.acquire() as conn:
        public = [r["id"] for r in await conn.fetch(
            "select id from docs_term_coverage($1, $2, '{public}')", f"{SECRET} rollback", ids)]
        everyone = [r["id"] for r in await conn.fetch("select id from docs_term_coverage($1, $2, null)", f"{SECRET} rollback", ids)]
    assert public == ["docs:deploy.mdx#rollback"]
    assert sorted(everyone) == sorted(ids)


async def test_multi_audience_statistics_count_each_visible_section_once(pool, keyword_only, tmp_path: Path) -> None:
    repo = make_docs_repo(tmp_path / "r", PAGES)
    await _sync(pool, _source(repo))
    async with pool.acquire() as conn:
        for audiences in (["public"], ["developer"], ["internal"], ["developer", "internal"], ["developer", "public"]):
            stats = {r["lexeme"]: r["ndoc"] for r in await conn.fetch(
                "select lexeme, ndoc from docs_query_lexemes('deploy key', $1)", audiences)}
            visible = await conn.fetchval(
                "select count(*) from docs_section where audiences && $1::text[]"
                " and search_vector @@ 'deploy'::tsquery", audiences)
            assert stats["deploy"] == visible, audiences


def _reply(stream: str) -> str:
    """The text of a chat stream, without its message ids."""
    import json

    parts = [json.loads(line[6:]) for line in stream.splitlines() if line.startswith("data: {")]
    return "".join(p.get("delta", "") for p in parts if p["type"] == "text-delta")


async def test_default_chat_route_never_shows_internal_pages(pool, keyword_only, start_server, tmp_path) -> None:
    repo = make_docs_repo(tmp_path / "r", PAGES)
    await _sync(pool, _source(repo))
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        stream = client.post("/docs/chat", json={"message": f"how do I roll back the {SECRET} deploy"}).text
        assert "Runbook" not in stream and "ops script" not in stream and "by hand" not in stream
        # A word only internal pages hold is, to the anonymous chat, a word the docs never use: the
        # answer check answers it exactly as it answers a word that exists nowhere, naming the
        # asker's word as one the docs do not mention (issue 45: "partly", never a refusal).
        unknown = client.post("/docs/chat", json={"message": f"how do I roll back the {UNKNOWN} deploy"}).text
        assert _reply(stream).replace(SECRET, "·") == _reply(unknown).replace(UNKNOWN, "·")
        assert f"does not mention “{SECRET}”" in _reply(stream)
        stream = client.post("/docs/chat", json={"message": "how do I roll back a deploy"}).text
        assert "Deploying" in stream and "Runbook" not in stream  # the public page still answers
        assert client.get("/docs/runbook").status_code == 404  # nor its page view
        # Anyone may call /healthz: it counted every section, so it told how much was internal.
        public = await pool.fetchval("select count(*) from docs_section where 'public' = any(audiences)")
        assert public < await pool.fetchval("select count(*) from docs_section")
        assert client.get("/healthz").json()["sections"] == public


async def test_a_session_opened_for_every_audience_is_not_continued_by_the_anonymous_chat(
    pool, keyword_only, start_server, tmp_path
) -> None:
    """`docschat ask` (every audience) prints its session id; given as the widget's cookie, that id
    showed the CLI's internal answers, continued the session and could delete it."""
    from app.chat.sessions import COOKIE_NAME, add_message, upsert_session

    repo = make_docs_repo(tmp_path / "r", PAGES)
    await _sync(pool, _source(repo))
    async with pool.acquire() as conn:
        operator = await upsert_session(conn, None, None)  # as `docschat ask` opens one
        await add_message(conn, operator, "user", "how do I deploy by hand?")
        await add_message(conn, operator, "assistant", f"Deploy the {SECRET} cluster by hand.")
        public = await upsert_session(conn, None, ["public"])  # as the widget opens one
        await add_message(conn, public, "user", "how do I rotate a key?")
    server = start_server()
    with httpx.Client(base_url=server.url, timeout=30) as client:
        client.cookies.set(COOKIE_NAME, str(public))
        assert [m["content"] for m in client.get("/docs/chat").json()["messages"]] == ["how do I rotate a key?"]
        client.cookies.set(COOKIE_NAME, str(operator))
        assert client.get("/docs/chat").json()["messages"] == []
        reply = client.post("/docs/chat", json={"message": "and how do I roll back?"})
        assert SECRET not in reply.text
        assert reply.cookies[COOKIE_NAME] not in ("", str(operator))  # a session of its own
        client.cookies.clear()
        client.cookies.set(COOKIE_NAME, str(operator))
        assert client.request("DELETE", "/docs/chat").json()["deleted"] is False
    assert await pool.fetchval("select count(*) from docs_chat_message where session_id = $1", operator) == 2


def test_ask_cli_public_audience_hides_the_secret(db_env, clean_db, tmp_path: Path) -> None:
    repo = make_docs_repo(tmp_path / "r", PAGES)
    env = {"EMBEDDING_PROVIDER": "none", "DOCS_REPO": str(repo)}
    assert docschat_in_process("sync", env=env).returncode == 0
    for args in (["ask", f"{SECRET} rollback", "--audience", "public"],
                 ["search", f"{SECRET} rollback", "--audience", "public", "--json"]):
        result = docschat_in_process(*args, env=env)
        assert result.returncode == 0, result.stderr
        assert "ops script" not in result.stdout and "Runbook" not in result.stdout  # the question is echoed
    # The printed way to continue keeps the audience: without it the session (opened for public)
    # was not continued, and a new conversation started without a word.
    first = docschat_in_process("ask", "how do I deploy?", "--audience", "public", env=env)
    hint = first.stderr.split("continue this conversation: ")[1].split('"')[0].split()
    assert hint[:4] == ["docschat", "ask", "--audience", "public"] and hint[4] == "--session", hint
    again = docschat_in_process("ask", "and roll back?", *hint[2:6], env=env)
    assert hint[5] in again.stderr and "new conversation" not in again.stderr, again.stderr
    other = docschat_in_process("ask", "and roll back?", "--all-audiences", "--session", hint[5], env=env)
    assert "starts a new conversation" in other.stderr and hint[5] not in other.stderr.split("continue")[-1]
    # FLAG_PUBLIC holds every search to public: the session it opens is a public one too, which
    # the default (CHAT_AUDIENCES, public under FLAG_PUBLIC) continues.
    flagged = docschat_in_process("ask", "how do I deploy?", env={**env, "FLAG_PUBLIC": "true"})
    assert "docschat ask --session" in flagged.stderr, flagged.stderr
    result = docschat_in_process("search", f"{SECRET} rollback", "--json", env=env)
    assert "Runbook" not in result.stdout  # the default: what the chat's visitors see (CHAT_AUDIENCES)
    result = docschat_in_process("search", f"{SECRET} rollback", "--json", "--all-audiences", env=env)
    assert "Runbook" in result.stdout  # the operator's view: every audience


async def test_source_weights_and_path_boosts_change_the_order(pool, keyword_only, tmp_path: Path) -> None:
    page = "---\ntitle: Webhooks\naudience: public\n---\nConfigure a webhook endpoint for events.\n"
    docs = make_docs_repo(tmp_path / "docs", {"webhooks.mdx": page})
    help_repo = make_docs_repo(tmp_path / "help", {"help/webhooks.mdx": page})
    from app.corpus.sources import Boost

    retriever_for = lambda config: build_retriever(pool, get_settings()).__class__(  # noqa: E731
        pool, get_settings(), None, config
    )
    configs = [
        SourcesConfig((_source(docs, "docs", weight=1.15), _source(help_repo, "help", weight=1.0))),
        SourcesConfig((_source(docs, "docs", weight=1.15), _source(help_repo, "help", weight=1.0)),
                      (Boost("help/**", 1.2),)),
    ]
    await _sync(pool, *configs[0].sources)
    first = await retriever_for(configs[0]).retrieve("webhook endpoint", audiences=["public"])
    assert [p.source for p in first.pages] == ["docs", "help"]
    assert first.candidates[0].weight == 1.15
    boosted = await retriever_for(configs[1]).retrieve("webhook endpoint", audiences=["public"])
    assert [p.source for p in boosted.pages] == ["help", "docs"]
    assert boosted.candidates[0].weight == pytest.approx(1.2)


async def test_a_broken_source_leaves_the_others_synced_and_its_rows_as_they_were(
    pool, keyword_only, tmp_path: Path
) -> None:
    good = make_docs_repo(tmp_path / "good", {"a.mdx": "---\ntitle: A\naudience: public\n---\nAlpha text.\n"})
    other = make_docs_repo(tmp_path / "other", {"b.mdx": "---\ntitle: B\naudience: public\n---\nBeta text.\n"})
    await _sync(pool, _source(good, "good"), _source(other, "other"))
    write_files(good / "docs", {"c.mdx": "---\ntitle: C\naudience: public\n---\nGamma text.\n"})
    commit_all(good, "add c")
    broken = _source(other, "other", **{}).__class__(name="other", repo=other, branch="no-such-branch", dir="docs")
    report = await _sync(pool, _source(good, "good"), broken)
    assert [s.name for s in report.failed] == ["other"] and "no-such-branch" in report.failed[0].error
    async with pool.acquire() as conn:
        pages = sorted(r["id"] for r in await conn.fetch("select id from docs_section"))
    assert pages == ["good:a.mdx", "good:c.mdx", "other:b.mdx"]
    # Removing a source from the configuration removes its rows at the next sync.
    await _sync(pool, _source(good, "good"))
    async with pool.acquire() as conn:
        assert sorted(r["id"] for r in await conn.fetch("select id from docs_section")) == ["good:a.mdx", "good:c.mdx"]


def test_sync_cli_with_a_config_file_exits_1_naming_the_broken_source(db_env, clean_db, tmp_path: Path) -> None:
    make_docs_repo(tmp_path / "good", {"a.mdx": "---\ntitle: A\naudience: public\n---\nAlpha.\n"})
    (tmp_path / "docschat.toml").write_text(
        '[[sources]]\nname = "good"\nrepo = "good"\n\n[[sources]]\nname = "gone"\nrepo = "missing-repo"\n'
    )
    env = {"EMBEDDING_PROVIDER": "none", "DOCSCHAT_CONFIG": str(tmp_path / "docschat.toml")}
    result = docschat_in_process("sync", "--json", env=env)
    assert result.returncode == 1
    summary = json.loads(result.stdout)
    by_name = {s["name"]: s for s in summary["sources"]}
    assert by_name["good"]["error"] is None and by_name["good"]["new"] == 1
    assert "missing-repo" in by_name["gone"]["error"]


async def test_audience_flip_updates_metadata_without_reembedding(pool, fake_gemini, tmp_path: Path) -> None:
    repo = make_docs_repo(tmp_path / "r", {"ops.mdx": "---\ntitle: Ops\naudience: public\n---\nOps text.\n\n## A\nx\n"})
    provider = get_embedding_provider(get_settings())
    await _sync(pool, _source(repo), provider=provider)
    calls = len(fake_gemini.embed_calls())
    write_files(repo / "docs", {"ops.mdx": "---\ntitle: Ops\naudience: internal\n---\nOps text.\n\n## A\nx\n"})
    commit_all(repo, "turn internal")
    report = await _sync(pool, _source(repo), provider=provider)
    assert len(fake_gemini.embed_calls()) == calls and report.embedded == 0
    assert report.metadata_only == 2 and report.changed == 2
    async with pool.acquire() as conn:
        rows = await conn.fetch("select audiences, embedding is not null as has_vector from docs_section")
    assert all(list(r["audiences"]) == ["internal"] and r["has_vector"] for r in rows)
    public = await build_retriever(pool, get_settings()).retrieve("ops text", audiences=["public"])
    assert public.pages == []


def _chunks(files: dict[str, str], source: str = "docs"):
    settings = Settings()
    return compose_files(files, settings, Source(name=source, repo=Path(".")))


def test_plan_is_pure_new_changed_metadata_vanished_and_kept_sources() -> None:
    before = _chunks({"a.mdx": "---\ntitle: A\n---\nAlpha.\n", "b.mdx": "---\ntitle: B\n---\nBeta.\n"}).chunks
    existing = [ExistingRow(c.id, c.source, c.content_hash, "m", True,
                            (c.source, c.page, c.title, c.heading, c.breadcrumb, c.href, list(c.audiences)))
                for c in before]
    existing.append(ExistingRow("other:x.mdx", "other", "h", "m", True, ()))
    existing.append(ExistingRow("gone:y.mdx", "gone", "h", "m", True, ()))
    after = _chunks({
        "a.mdx": "---\ntitle: A\naudience: public\n---\nAlpha.\n",  # audience only
        "c.mdx": "---\ntitle: C\n---\nGamma.\n",  # new; b.mdx vanished
    }).chunks
    plan = plan_sync(existing, after, model="m", synced_sources={"docs"}, configured_sources={"docs", "other"})
    assert [c.id for c in plan.to_embed] == ["docs:c.mdx"]
    assert [c.id for c in plan.metadata_only] == ["docs:a.mdx"]
    assert sorted(plan.delete_ids) == ["docs:b.mdx", "gone:y.mdx"]  # "other" is configured: kept
    changed_model = plan_sync(existing, after, model="m2", synced_sources={"docs"}, configured_sources=None)
    assert {c.id for c in changed_model.to_embed} == {"docs:a.mdx", "docs:c.mdx"}
    assert "gone:y.mdx" not in changed_model.delete_ids


def test_a_public_page_cannot_paste_an_internal_page_or_snippet() -> None:
    result = _chunks({
        "public.mdx": "---\ntitle: P\naudience: public\n---\nimport Notes from '/runbook.mdx'\n"
                      "import Ops from '/snippets/ops.mdx'\nimport Plain from '/snippets/plain.mdx'\n"
                      "import Both from '/snippets/both.mdx'\n\n<Notes />\n\n<Ops />\n\n<Plain />\n\n<Both />\n",
        "runbook.mdx": f"---\ntitle: Runbook\n---\nThe {SECRET} password is hunter2.\n",
        "snippets/ops.mdx": "---\naudience: internal\n---\nInternal ops detail.\n",
        "snippets/plain.mdx": "A plain shared sentence.\n",
        "snippets/both.mdx": "---\naudience: [public, internal]\n---\nShared with everyone.\n",
        "internal.mdx": "---\ntitle: I\n---\nimport Ops from '/snippets/ops.mdx'\n\n<Ops />\n",
    })
    text = {c.page: c.text for c in result.chunks}
    assert SECRET not in text["public.mdx"] and "Internal ops detail" not in text["public.mdx"]
    assert "A plain shared sentence." in text["public.mdx"] and "Shared with everyone." in text["public.mdx"]
    assert "Internal ops detail." in text["internal.mdx"]
    assert sum("not pasted" in w for w in result.warnings) == 2


def _myst(fragment: str) -> dict[str, str]:
    """A public MyST page holding `fragment` between a first and a last line the site shows."""
    return {"deploy.md": f"---\ntitle: Deploy\naudience: public\n---\nDeploy with one command.\n\n{fragment}The last line.\n"}


S = SECRET
# (pages, text the site shows, text it hides besides SECRET): one construct, or a few that meet, each.
HIDDEN_TEXT_CASES = [
    pytest.param(_myst(f"```{{only}} internal\nThe staging token is {S}1.\n```\n\n"), [], [], id="only-backtick-fence"),
    pytest.param(_myst(f"% reviewer note: the admin secret is {S}2\nThe dashboard shows the deploy.\n\n"),
                 ["The dashboard shows the deploy."], [], id="percent-comment"),
    pytest.param(_myst(f":::{{only}} internal\nThe contract value is {S}3.\n\n```python\nx = '{S}4'\n```\n:::\n\n"),
                 [], [], id="only-colon-fence-holding-code"),
    pytest.param(_myst(f"```{{ifconfig}} internal_build\nThe build flag is {S}5.\n```\n\n"), [], [], id="ifconfig"),
    # The code fence beside them keeps its `%` line.
    pytest.param(_myst(f"::::{{note}}\nA note everyone reads.\n:::{{only}} internal\n{S}6\n:::\n::::\n\n"
                       "```bash\n% ray start --head\n```\n\n"),
                 ["A note everyone reads.", "% ray start --head"], [], id="only-in-a-note-and-percent-in-code"),
    pytest.param(_myst(f"```{{todo}}\n{S}7\n```\n\n"), [], [], id="todo"),
    # MyST closes a colon fence only with a line indented less than four spaces, and a code fence
    # left open inside it ends with it, not with the page.
    pytest.param(_myst(f":::{{only}} internal\n    :::\n{S}8\n```\nunclosed\n:::\n\n"), [], [],
                 id="colon-fence-closed-only-by-a-shallow-line"),
    # Every line starting with `%` is a MyST comment, with a space after it or not.
    pytest.param(_myst(f"%{S}9 reviewer note\nRoll back from the dashboard.\n\n"), ["Roll back from the dashboard."], [],
                 id="percent-without-space"),
    # In a block quote, as at the top of the page (nested quotes too).
    pytest.param(_myst(f"> A quoted tip everyone reads.\n> :::{{only}} internal\n> {S}10\n> :::\n>\n"
                       f"> ```{{only}} internal\n> {S}11\n> ```\n> > % {S}12\n> > A nested quote.\n"
                       "> ```bash\n> % ray status\n> ```\n\n"),
                 ["> A quoted tip everyone reads.", "> > A nested quote.", "> % ray status"], [], id="block-quote"),
    # reStructuredText in `{eval-rst}`: its `only` directive and its comments.
    pytest.param(_myst(f"```{{eval-rst}}\n.. note:: An RST note.\n\n.. only:: internal\n\n   {S}13\n\n"
                       f".. {S}14 a comment\n   still the comment\n\nRST text after.\n```\n\n"),
                 [".. note:: An RST note.", "RST text after."], ["still the comment"], id="eval-rst"),
    # In list items, measured from the item's content column.
    pytest.param(_myst(f"1. A step everyone reads.\n2. :::{{only}} internal\n   {S}15\n   :::\n"
                       f"- ```{{only}} internal\n  {S}16\n  ```\n- % {S}17\n- > :::{{only}} internal\n  > {S}18\n"
                       f"- Outer item.\n    - Inner item.\n\n      :::{{only}} internal\n      {S}19\n      :::\n\n"),
                 ["1. A step everyone reads.", "- Outer item.", "- Inner item."], [], id="list-items"),
    pytest.param(_myst(f"::: {{only}} internal\n{S}20\n:::\n\n``` {{only}} internal\n{S}21\n```\n\n"), [], [],
                 id="space-before-the-brace"),
    # A comment running past a line separator CommonMark does not break at.
    pytest.param(_myst(f"% a note\u2028{S}22\n\n"), [], [], id="percent-past-a-line-separator"),
    pytest.param(_myst(f":::{{only}} internal\n\t:::\n{S}23\n:::\n\n"), [], [], id="tab-indented-colon-closes-nothing"),
    pytest.param(_myst(f"> ```{{eval-rst}}\n> .. only:: internal\n>\n>    {S}24\n> ```\n\n"), [], [],
                 id="eval-rst-in-a-block-quote"),
    pytest.param(_myst(f">\t:::{{only}} internal\n>\t{S}25\n>\t:::\n\n"), [], [], id="quote-marker-and-a-tab"),
    # A fence in indented code opens nothing.
    pytest.param(_myst(f"para\n\n    ```\n\n:::{{only}} internal\n{S}26\n:::\n\n"), ["para"], [],
                 id="fence-in-indented-code"),
    # Directives nested past the depth read.
    pytest.param({"nested.md": "---\ntitle: Nested\naudience: public\n---\nNested notes.\n\n"
                  + "".join("`" * (20 - n) + "{note}\n" for n in range(10)) + f":::{{only}} internal\n{S}27\n:::\n"
                  + "".join("`" * (11 + n) + "\n" for n in range(10))},
                 ["Nested notes."], [], id="directives-nested-deep"),
    # RST indented with no-break spaces, a target without its colon; `:::{eval-rst}`.
    pytest.param(_myst(f"```{{eval-rst}}\n.. only:: internal\n\n\u00a0\u00a0\u00a0{S}28\n\n.. _{S}29\n```\n\n"), [], [],
                 id="rst-no-break-spaces-and-target"),
    pytest.param(_myst(f":::{{eval-rst}}\n{S}30\n:::\n\n"), [], [], id="colon-eval-rst"),
    # `.. raw::` in `{eval-rst}`: the HTML build writes raw HTML into the page, where a browser reads
    # it (a comment, a hidden element show nothing), and drops raw LaTeX (Sphinx 9.0 + myst-parser 5.2, checked).
    pytest.param(_myst(f"```{{eval-rst}}\n.. raw:: html\n\n   <!-- {S}60 -->\n   <div hidden>{S}61</div>\n\n"
                       f".. raw:: latex\n\n   \\newpage {S}62\n\nRST text after raw.\n```\n\n"),
                 ["RST text after raw."], [], id="eval-rst-raw"),
    # A comment holding a code fence; closed on a fence line; reopened where it closes; opened after
    # a tag; left open at the end of a list item (the site hides on, the HTML example in a fence
    # too, as the browser does: the `-->` after the item is text there, `&gt;`), up to the `-->`
    # of `<!-->`, a comment already closed.
    pytest.param(_myst(f"<!-- internal: {S}31\n```bash\ncurl {S}32\n```\n-->Shown after the comment.\n\n"
                       f"<!-- {S}33\n```-->\n\n<!-- {S}34 --> <!-- {S}36\n```\n{S}37\n```\n-->\n\n"
                       f"<div><!-- {S}38\n```\n{S}39\n```\n--></div>\n\n"
                       f"- An item.\n\n  <!-- {S}40\n```\n{S}41\n```\n-->\n\n"
                       "```html\n<!-- an HTML example\n```\n\n<!-->\nAfter an empty comment.\n\n"),
                 ["Shown after the comment.", "After an empty comment."], ["<!-- an HTML example"],
                 id="html-comments-holding-fences"),
    # What follows a comment on its line is no fence; a paragraph after a one-line comment is no
    # HTML (its `<!--` is text).
    pytest.param(_myst(f"<!-- a\n-->```\nA line <!-- {S}46 --> in a paragraph.\n\n"
                       "<!-- a note -->\nA paragraph with <!-- in it.\n\nSeen after a one-line comment.\n\n"),
                 ["in a paragraph.", "Seen after a one-line comment."], [], id="after-a-comment-on-its-line"),
    # A comment may close with `--!>` (CommonMark's HTML block runs on to a `-->`: the browser shows
    # the text before it).
    pytest.param(_myst(f"<!-- {S}47 --!>\nAfter a bang close. -->\n\n"), ["After a bang close."], [], id="bang-close"),
    # A footnote's text is a container too, past a line wrapped without indentation.
    pytest.param(_myst(f"A claim.[^1]\n\n[^1]: A source.\n    :::{{only}} internal\n    {S}48\n    :::\n\n    % {S}49\n\n"
                       f"[^2]: Another source,\nwrapped.\n    :::{{only}} internal\n    {S}50\n    :::\n\n"),
                 ["[^1]: A source."], [], id="footnotes"),
    # `<pre>` runs past blank lines; `<style>` is never shown.
    pytest.param(_myst(f"<pre>\nA preformatted line.\n\n<!-- {S}51\n```\n{S}52\n```\n-->\n</pre>\n\n"
                       f"<style>\n.{S}53 {{}}\n\n</style>\n\n"),
                 ["A preformatted line."], [], id="pre-and-style"),
    # An image starts a paragraph, not HTML (its `<!--` in backticks is text).
    pytest.param(_myst("<img src=\"logo.png\"> HTML comments open with `<!--`.\n\nAfter the image line.\n\n"),
                 ["After the image line."], [], id="image-starts-a-paragraph"),
    # `:::{code-block}` holds code.
    pytest.param(_myst(":::{code-block} html\n<!-- an unclosed comment in HTML code\n:::\n\nAfter the code block.\n\n"),
                 ["After the code block."], [], id="colon-code-block"),
    # A tag alone on its line starts HTML, after any line; a script hides to its closing tag.
    pytest.param(_myst(f":::{{note}}\n<img src=\"arch.png\">\nSee the diagram. <!-- {S}54\n```\n{S}55\n```\n-->\n:::\n\n"
                       f"<script>var {S}56;</script> After a script.\n\n<div>\n<script>\nvar {S}57;\n</script>\n</div>\n\n"),
                 ["See the diagram.", "After a script."], [], id="tag-line-and-scripts"),
    # A comment a footnote leaves open hides the footnotes after it: the site shows them last.
    pytest.param(_myst(f"[^3]: <!-- an open note\n\nAfter the footnote.\n\n[^4]: {S}58 in a later footnote.\n\n"),
                 ["After the footnote."], [], id="comment-left-open-in-a-footnote"),
    pytest.param(_myst(f"1. An item,\n<span>wrapped</span> lazily.\n    % {S}59\n\n"), ["wrapped lazily."], [],
                 id="lazy-list-line"),
    pytest.param({"open.md": f"---\ntitle: Open\naudience: public\n---\nShown first.\n\n````{{note}}\n<!-- never closed\n"
                             f"````\n\n```\n{S}35\n```\n"},
                 ["Shown first."], [], id="comment-never-closed-in-a-note"),
    # MDX comments, indented in a component too; in a paragraph, space inside the braces or not; in
    # inline code a comment is code the page shows.
    pytest.param({"comments.mdx": "---\ntitle: M\naudience: public\n---\n<Steps>\n  <Step title=\"Install\">\n"
                  f"    {{/* {S}42\n    ```bash\n    curl {S}43\n    ```\n    */}}\n"
                  "    Run it.\n  </Step>\n  <Step title=\"Embed\">\n    ```html\n    <!-- paste in <head>\n    ```\n"
                  "  </Step>\n</Steps>\n\nAfter the steps.\n\n"
                  f"{{/* {S}44\n```\n{S}45\n```\n*/ }}\n\nAfter the MDX comment.\n\n"
                  f"Text {{ /* {S}61 */ }} and {{/* {S}62\n*/\n}} in a paragraph.\n\n"
                  "Write `{/* a note */}`, never `<!-- a note -->`.\n"},
                 ["Run it.", "<!-- paste in <head>", "After the steps.", "After the MDX comment.", "in a paragraph.",
                  "Write `{/* a note */}`, never `<!-- a note -->`."], [], id="mdx-comments"),
    # A `<script>` never closed hides the rest of the page, as in the browser.
    pytest.param({"script.md": f"---\ntitle: U\naudience: public\n---\nThe page.\n\nThe <script> tag unclosed, and "
                               f"styled <style>.{S}60 {{}}</style> text.\n\nMore {S}72.\n"},
                 ["The page.\n\nThe"], ["tag unclosed"], id="script-never-closed"),
    # `{/*` in a `.md` page is text; backticks a comment holds start no code span; Mintlify builds
    # `.md` pages as MDX: a closed `{/* … */}` in a paragraph is hidden there too.
    pytest.param({"braces.md": "---\ntitle: B\naudience: public\n---\nBraces.\n\n{/* kept as text\n\nStill shown.\n"
                               f"\nText <!-- a ` --> <!-- {S}71 --> ` after.\n"
                               f"\nA .md paragraph {{/* {S}73 */}} with an MDX comment.\n"},
                 ["Still shown.", "A .md paragraph  with an MDX comment."], [], id="braces-and-backticks-in-md"),
    # A code fence open in a list item leaves no paragraph to wrap: a line less indented ends the
    # item (and its fence), and the comment after it is HTML, not code. A fence line in a comment
    # opens no fence, nor does a colon directive's line.
    pytest.param({"fenced.md": f"---\ntitle: F\naudience: public\n---\n- An item with code.\n  ```\nNot wrapped.\n"
                               f"  <!-- {S}63 -->\n\nAfter the item.\n\n"
                               f"1.  Run:\n    <!--\n    ```python\n    old()\n    ``` -->\n    New text\nwrapped on.\n"
                               f"    % {S}64 a note\n\n"
                               f"- b\n  :::{{code-block}}\n  shown code\nNot wrapped either.\n  % {S}68\n"},
                 ["Not wrapped.", "After the item.", "wrapped on.", "Not wrapped either."], [],
                 id="fence-open-in-a-list-item"),
    # A fence left open in a list item or footnote ends with it: the paragraphs after it are prose.
    pytest.param({"open-item.md": f"---\ntitle: O\naudience: public\n---\n- a\n  ```\nNot code <!-- {S}65 --> here.\n\n"
                                  f"[^9]: x\n    ~~~\n\nLater <script>var {S}66;</script> prose.\n"},
                 ["Not code  here.", "Later  prose."], [], id="fence-left-open-in-item-or-footnote"),
    pytest.param({"open-mdx.mdx": f"---\ntitle: P\naudience: public\n---\n- a\n  ```\nb\n\nLater {{ /* {S}67 */ }} para.\n"},
                 ["Later  para."], [], id="fence-left-open-in-an-mdx-item"),
    # ...and only where the prose pass has that fence open: not one it never saw (on the item's
    # marker line), nor one a fence line in HTML had opened, which the item's fence then closed.
    pytest.param({"unseen.md": f"---\ntitle: Q\naudience: public\n---\n- ```\n  x\n\nThen <!-- {S}69 --> shown.\n"},
                 ["Then  shown."], [], id="fence-on-the-item-marker-line"),
    pytest.param({"html-fence.md": f"---\ntitle: R\naudience: public\n---\n<div>\n```\n</div>\n\n- a\n  ```\n  x\n\n"
                                   f"Then <!-- {S}70 --> also shown.\n"},
                 ["Then  also shown."], [], id="fence-opened-in-html"),
    # MDX is not MyST: there a line starting with `%` is text the page shows.
    pytest.param({"windows.mdx": "---\ntitle: W\naudience: public\n---\n<Step title=\"Windows\">\n"
                                 "% APPDATA holds the config.\n</Step>\n"},
                 ["% APPDATA holds the config."], [], id="percent-is-text-in-mdx"),
]


@pytest.mark.parametrize(("pages", "shown", "hidden"), HIDDEN_TEXT_CASES)
def test_text_the_built_site_never_shows_is_not_indexed_in_a_public_page(
    pages: dict[str, str], shown: list[str], hidden: list[str]
) -> None:
    """MyST's `{only}` (either fence), `{ifconfig}` and `%` comments, HTML and MDX comments, `<script>`
    and `<style>` were indexed as page text, so the chat quoted an internal note from a public page;
    each case holds one such construct (or a few that meet) and the text around it the site shows."""
    text = "\n".join(c.text for c in _chunks(pages).chunks)
    assert SECRET not in text
    first_and_last = ["Deploy with one command.", "The last line."] if "deploy.md" in pages else []
    for line in first_and_last + shown:
        assert line in text, line
    for line in hidden:
        assert line not in text, line


def test_an_mdx_expression_is_not_indexed_unless_it_is_a_string() -> None:
    """MDX shows what a `{…}` expression evaluates to: `{false && 'x'}` nothing, `{// note}` nothing,
    `{" "}` a space. The index kept the braces' text, so an internal note in an expression was
    searchable; now it keeps only a plain string's text. An expression ends where MDX ends it: not
    at a brace in a string, a comment, a regular expression or an attribute, and JSX text in it may
    hold quotes and URLs. Braces in code, in an attribute, escaped, or in a `.md` page (no MDX
    there) are text; one never closed stays text, as does the rest. MDX has no math: TeX's braces
    are expressions there (@mdx-js/mdx 3 refuses `$\\frac{a}{b}$` unless `a` and `b` are defined).
    An escape shows its character (`\\\\` a backslash); a link's destination is written as the
    page links it (`%7B`)."""
    page = (
        "---\ntitle: E\naudience: public\n---\n"
        f"Before {{false && 'internal: {SECRET}1'}} after.\n\n"
        f"A line comment {{// {SECRET}2\n}} ends here.\n\n"
        f"Nested {{cond ? {{a: '{SECRET}3'}} : \"}}\" + '{SECRET}4'}} braces.\n\n"
        f"<Note>\n{{showInternal && <Warning>Don't use {SECRET}5 at https://x.example</Warning>}}\n</Note>\n\n"
        f"A comment in it {{/*c*/ false && \"*/}}\" && '{SECRET}6'}} dropped.\n\n"
        f"An escaped backslash \\\\{{false && '{SECRET}7'}} then.\n\n"
        f"An attribute {{show && <Card title=\"}}\">{SECRET}8</Card>}} and a regex "
        f"{{false && /}}/.test('{SECRET}9')}}.\n\n"
        f"A backtick {{false && \"`{SECRET}10\"}} then `real code`.\n\n"
        f"{{/* at a line's start */ false && '{SECRET}11'}}\n\n"
        f"A tick {{false && \"`\"}} and {{false && '{SECRET}12'}} then a lone tick `.\n\n"
        # JSX after `return`, a postfix `++` before `<`; a regular expression longer than the lexer reads
        # loses it, and then that expression and every later one end where their braces balance.
        f"An IIFE {{(() => {{ return /}}/.test(s) }})() && '{SECRET}13'}} and {{i++<n && \"}}\" && '{SECRET}14'}}.\n\n"
        f"Long {{false && /{'it' + chr(39) + 's ' * 90}/.test(s) && '{SECRET}15'}} then {{false && '{SECRET}16'}}.\n\n"
        f"A brace in a [link](/api/{{id) then {{false && '{SECRET}17'}} is text.\n\n"
        "Link <a href=\"/x\">here</a>{\" \"}and {'a string'} {/* beside */ 'shown'}.\n\n"
        "<Card title=\"Card title\" icon={{ name: 'rocket' }}>Card text.</Card>\n\n"
        "Code `{inline}` and an escaped \\{brace\\} stay.\n\n"
        "```js\nconst x = {kept: true}\n```\n\n"
        "## Setup {#setup-id}\n\nA heading's explicit id is no expression, nor is TeX: $\\frac{a}{b}$.\n"
    )
    chunks = _chunks({"expr.mdx": page}).chunks
    assert any(c.href.endswith("#setup-id") and c.heading == "Setup" for c in chunks)
    text = "\n".join(c.text for c in chunks)
    assert SECRET not in text
    for shown in ("Before  after.", "A line comment  ends here.", "Nested  braces.", "A comment in it  dropped.",
                  "An escaped backslash \\ then.", "An attribute  and a regex .", "then `real code`.",
                  "A tick  and  then a lone tick `.", "An IIFE  and .", "Long  then .", "[link](/api/%7Bid) then  is text.",
                  "Link [here](/x) and a string shown.", "Card title", "Card text.", "`{inline}`", "an escaped {brace} stay",
                  "const x = {kept: true}", "TeX: $\\frac$."):
        assert shown in text, shown
    # A brace never closed: MDX refuses the page (the site's build fails), so nothing is indexed.
    unclosed = _chunks({"unclosed.mdx": "---\ntitle: U\naudience: public\n---\nUnclosed { brace, the rest.\n"})
    assert not unclosed.chunks and unclosed.skipped_pages == ["unclosed.mdx"]
    # In a `.md` page braces are text: MyST has no expressions.
    md = "---\ntitle: M\naudience: public\n---\nSet {false && 'x'} as written.\n"
    assert "Set {false && 'x'} as written." in _chunks({"braces.md": md}).chunks[0].text


def test_front_matter_that_contradicts_itself_makes_the_page_internal() -> None:
    """`public: true` beside `audience: internal` was the union (public), and `audiences:` was not
    read at all (the source's default, public here)."""
    result = compose_files({
        "legacy.mdx": "---\ntitle: L\npublic: true\naudience: internal\n---\nLegacy text.\n",
        "plural.mdx": "---\ntitle: P\naudiences: [internal]\n---\nPlural text.\n",
        "both.mdx": "---\ntitle: B\naudience: public\naudiences: internal\n---\nBoth text.\n",
        "agree.mdx": "---\ntitle: A\npublic: true\naudience: [public, partners]\n---\nAgreeing text.\n",
        "capital.mdx": "---\ntitle: C\npublic: true\nAudience: internal\n---\nCapital text.\n",
        "Plural.mdx": "---\ntitle: Q\nAudiences: internal\n---\nCapital plural text.\n",
        # A key written twice: YAML keeps the last one, silently (public, before).
        "twice.mdx": "---\ntitle: T\naudience: internal\naudience: public\n---\nTwice text.\n",
        "twice-plural.md": "---\ntitle: U\naudiences: [internal]\ndescription: d\naudiences: [public]\n---\nU text.\n",
        "twice-public.mdx": "---\ntitle: V\npublic: false\npublic: true\n---\nV text.\n",
    }, Settings(), Source(name="help", repo=Path("."), audiences=("public",)))
    audiences = {p.path: p.audiences for p in result.pages}
    assert audiences == {"legacy.mdx": ("internal",), "plural.mdx": ("internal",), "both.mdx": ("internal",),
                         "agree.mdx": ("partners", "public"), "capital.mdx": ("internal",),
                         "Plural.mdx": ("internal",), "twice.mdx": ("internal",), "twice-plural.md": ("internal",),
                         "twice-public.mdx": ("internal",)}
    assert sum("the page is internal" in w for w in result.warnings) == 6
    for page in ("twice.mdx", "twice-plural.md", "twice-public.mdx"):
        assert any(w.startswith(f"{page}: ") and "declared more than once" in w for w in result.warnings), page
    assert any("legacy.mdx" in w and "contradicts" in w for w in result.warnings)


async def test_a_title_escaping_a_lone_surrogate_is_synced(pool, keyword_only, tmp_path: Path) -> None:
    """YAML's "\\ud800" escape put a lone surrogate in the title, which no chunk hash or database
    takes: the page was skipped. Front matter text is made storable like every other text (app/text.py)."""
    pages = {"deploy.mdx": '---\ntitle: "Deploy \\ud800 guide"\naudience: public\n---\nDeploy with one command.\n'}
    report = await _sync(pool, _source(make_docs_repo(tmp_path / "r", pages)))
    assert report.chunks == 1, report.warnings
    assert await pool.fetchval("select title from docs_section") == "Deploy \ufffd guide"


def test_config_file_errors_name_the_file_table_and_key(tmp_path: Path) -> None:
    cases = {
        '[[sources]]\nrepo = "."\n': "'name' is required",
        '[[sources]]\nname = "a"\n[[sources]]\nname = "a"\n': "used twice",
        '[[sources]]\nname = "a"\nweight = "heavy"\n': "'weight' must be a int or float",
        '[[sources]]\nname = "a"\naudience = ["ok", "not ok"]\n': "'audience'",
        '[[sources]]\nname = "a"\ncolour = "red"\n': "unknown key 'colour'",
        '[[boosts]]\nglob = "x/**"\n': "at least one [[sources]]",
        '[[sources]]\nname = "a"\n[[boosts]]\nglob = "x/**"\nfactor = 0\n': "'factor'",
        "sources = [": "not valid TOML",
    }
    for text, expected in cases.items():
        path = tmp_path / "docschat.toml"
        path.write_text(text)
        with pytest.raises(ConfigError, match=None) as info:
            load_sources(Settings(docschat_config=path))
        assert expected in str(info.value) and str(path) in str(info.value), (text, str(info.value))
    path.write_text('[[sources]]\nname = "help"\nrepo = "../help"\nweight = 1.3\naudience = "public"\n'
                    '[[boosts]]\nglob = "help/**"\nfactor = 1.2\n')
    config = load_sources(Settings(docschat_config=path))
    assert config.sources[0].audiences == ("public",) and config.sources[0].repo == tmp_path / "../help"
    assert config.weight("help", "help/x.mdx") == pytest.approx(1.3 * 1.2)
    assert config.weight("help", "other/x.mdx") == pytest.approx(1.3)
