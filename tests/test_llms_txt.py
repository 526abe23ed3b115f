"""/llms.txt and /llms-full.txt: the llmstxt.org format from the index, only what CHAT_AUDIENCES may
see, cached until the next sync, ETag and 304. The project below (docs with an internal page, a page
that declares no audience, and a code source) is shared with tests/test_mcp.py."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import asyncpg
import httpx
import pytest

from app.config import Settings, get_settings
from app.corpus.compose import compose_files
from app.corpus.sources import Source
from app.doors.llms_txt import DocPage, describe, etag_matches, page_sort_key, section_title
from tests.helpers import commit_all, git, make_docs_repo, sync_configured_sources, write_files

# Words that exist only in pages (and a file) the anonymous reader may not see.
SECRET = "zanzibarquokka"
UNDECLARED_SECRET = "nodeclaredwombat"

PAGES = {
    "docs/index.mdx": "---\ntitle: Acme\naudience: public\n---\nAcme answers questions about your docs. It runs "
                      "anywhere.\n\n## Where to start\nRead the guides.\n",
    "docs/install.mdx": "---\ntitle: Install\naudience: public\n---\nInstall Acme with `pip install acme`.\n",
    "docs/guides/widget.mdx": (
        "---\ntitle: Embed the [chat] widget\naudience: public\n---\nAdd the **chat widget** to any docs site "
        "with [one script tag](https://example.com/x). More follows.\n\n## Embed the widget\nAdd one script tag "
        "to your pages; the script loads widget.js.\n\n## Colors\nThe widget follows the visitor's color scheme.\n"
    ),
    "docs/guides/vault.mdx": (
        "---\ntitle: Vault rotation\naudience: internal\n---\nHow on-call staff rotate the vault keys.\n\n"
        f"## Rotate the keys\nThe rotation password is {SECRET}; run vault rotate every Monday.\n"
    ),
    "docs/guides/staging.mdx": (
        "---\ntitle: Staging servers\n---\nThe staging servers of the team.\n\n"
        f"## Hosts\nThe staging host is {UNDECLARED_SECRET}.example; deploy there first.\n"
    ),
    "app/limits.py": "class RateLimits:\n    \"\"\"Questions per client per hour.\"\"\"\n\n    def allowed(self):\n"
                     "        return True\n",
    "app/vault.py": f"VAULT_PASSWORD = \"{SECRET}\"\n\n\ndef rotate():\n    return VAULT_PASSWORD\n",
}


@pytest.fixture
def doors_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository with PAGES, and a docschat.toml (in the working folder) naming its docs and its
    code (audience developer). Keyword-only, so that no model loads."""
    repo = make_docs_repo(tmp_path / "acme", PAGES, docs_dir=".")
    (tmp_path / "docschat.toml").write_text(
        '[[sources]]\nname = "docs"\nrepo = "acme"\ndir = "docs"\n\n'
        '[[sources]]\nname = "server"\nkind = "code"\nrepo = "acme"\n'
    )
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    monkeypatch.setenv("SITE_NAME", "Acme Docs")
    monkeypatch.setenv("SITE_SUMMARY", "Acme answers questions about your documentation.")
    get_settings.cache_clear()
    return repo


async def sync_project() -> None:
    get_settings.cache_clear()  # the fixture's environment, read afresh
    await sync_configured_sources()


def _get(server, path: str, **headers: str) -> httpx.Response:
    return httpx.get(server.url + path, headers=headers, timeout=30)


def test_llms_txt_lists_the_public_pages_by_folder_in_the_llmstxt_format(
    doors_project, clean_db, db_env, start_server
) -> None:
    asyncio.run(sync_project())
    response = _get(start_server(), "/llms.txt")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/plain; charset=utf-8"
    assert response.text == (
        "# Acme Docs\n\n> Acme answers questions about your documentation.\n\n"
        "## Docs\n\n"
        "- [Acme](http://127.0.0.1:8000/docs): Acme answers questions about your docs.\n"
        "- [Install](http://127.0.0.1:8000/docs/install): Install Acme with pip install acme.\n\n"
        "## Guides\n\n"
        "- [Embed the \\[chat\\] widget](http://127.0.0.1:8000/docs/guides/widget): Add the chat widget to any docs "
        "site with one script tag.\n"
    )


def test_llms_full_txt_has_every_visible_page_in_order_and_nothing_else(
    doors_project, clean_db, db_env, start_server
) -> None:
    asyncio.run(sync_project())
    server = start_server()
    full = _get(server, "/llms-full.txt").text
    index = _get(server, "/llms.txt").text
    titles = re.findall(r"^# (.+)$", full, re.MULTILINE)
    assert titles == ["Acme Docs", "Acme", "Install", "Embed the [chat] widget"]
    assert "Source: http://127.0.0.1:8000/docs/guides/widget\n" in full
    # The page's text: its overview, then its sections.
    assert full.index("Add the **chat widget**") < full.index("## Embed the widget") < full.index("## Colors")
    for text in (full, index):
        # Internal pages, pages that declare no audience, and code are never in either file.
        assert SECRET not in text and UNDECLARED_SECRET not in text
        assert "Vault rotation" not in text and "Staging servers" not in text
        assert "RateLimits" not in text and "limits.py" not in text


def test_the_page_view_shows_sections_in_file_order_each_heading_once(
    doors_project, clean_db, db_env, start_server
) -> None:
    # Ids sort "alpha" before "zebra"; the file has Zebra first, and Zebra is long enough to be
    # split in parts (MAX_CHUNK_CHARS 800), which share its heading and its anchor.
    paragraph = "The zebra setup step {n} configures the stripes of the widget for the visitor. " * 5
    long_section = "\n\n".join(paragraph.format(n=n) for n in range(1, 4))
    write_files(doors_project, {
        "docs/guides/order.mdx": "---\ntitle: Order\naudience: public\n---\nOverview.\n\n"
                                 f"## Zebra setup\n{long_section}\n\n## Alpha notes\nThe alpha notes come last.\n",
        # A "~" in a page's path is not a part's "~N": each of its sections keeps its heading.
        "docs/guides/odd~name.mdx": "---\ntitle: Odd name\naudience: public\n---\n## First\nOne.\n\n## Second\nTwo.\n",
    })
    commit_all(doors_project, "a page whose sections are not in id order")
    asyncio.run(sync_project())
    server = start_server()
    html = _get(server, "/docs/guides/order").text
    assert html.index("Overview.") < html.index("<h2>Zebra setup</h2>") < html.index("<h2>Alpha notes</h2>")
    assert html.count("<h2>Zebra setup</h2>") == 1 and html.count('id="zebra-setup"') == 1
    assert html.index("step 3 configures") < html.index("<h2>Alpha notes</h2>")  # its last part, in its section
    odd = _get(server, "/docs/guides/odd~name").text
    assert odd.index("<h2>First</h2>") < odd.index("<h2>Second</h2>") < odd.index("Two.")


def test_a_wider_chat_audience_widens_the_files(doors_project, clean_db, db_env, start_server, monkeypatch) -> None:
    asyncio.run(sync_project())
    monkeypatch.setenv("CHAT_AUDIENCES", "public,internal,developer")
    full = _get(start_server(), "/llms-full.txt").text
    assert SECRET in full and UNDECLARED_SECRET in full  # the staging page took the source's default, internal
    assert "RateLimits" not in full and "limits.py" not in full  # code sources are never in the files


def test_etag_and_if_none_match(doors_project, clean_db, db_env, start_server) -> None:
    asyncio.run(sync_project())
    server = start_server()
    for path in ("/llms.txt", "/llms-full.txt"):
        first = _get(server, path)
        etag = first.headers["etag"]
        assert re.fullmatch(r'"[0-9a-f]{32}"', etag)
        again = _get(server, path, **{"if-none-match": etag})
        assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
        assert _get(server, path, **{"if-none-match": f'"other", W/{etag}'}).status_code == 304
        assert _get(server, path, **{"if-none-match": '"stale"'}).status_code == 200
    assert _get(server, "/llms.txt").headers["etag"] != _get(server, "/llms-full.txt").headers["etag"]


def test_the_files_are_kept_until_the_index_changes(
    doors_project, clean_db, db_env, owner_database_url, start_server
) -> None:
    asyncio.run(sync_project())
    server = start_server()
    before = _get(server, "/llms-full.txt")
    assert "one script tag to your pages" in before.text
    again = _get(server, "/llms-full.txt", **{"if-none-match": before.headers["etag"]})
    assert again.status_code == 304 and again.headers["etag"] == before.headers["etag"]

    async def edit_behind_the_index() -> None:
        # A change that is not a sync (an operator in psql): the index changed, so the files do.
        conn = await asyncpg.connect(owner_database_url)
        try:
            await conn.execute("update docs_section set content = replace(content, 'one script tag', 'TWO tags')")
        finally:
            await conn.close()

    asyncio.run(edit_behind_the_index())
    edited = _get(server, "/llms-full.txt", **{"if-none-match": before.headers["etag"]})
    assert edited.status_code == 200 and edited.headers["etag"] != before.headers["etag"]
    assert "TWO tags to your pages" in edited.text
    # A sync that writes: the next request sees the new text, under a new ETag.
    write_files(doors_project, {"docs/guides/widget.mdx": PAGES["docs/guides/widget.mdx"].replace(
        "## Colors", "## Sizes\nThe panel is 400 pixels wide.\n\n## Colors")})
    commit_all(doors_project, "sizes")
    asyncio.run(sync_project())
    after = _get(server, "/llms-full.txt", **{"if-none-match": edited.headers["etag"]})
    assert after.status_code == 200 and after.headers["etag"] != edited.headers["etag"]
    assert "The panel is 400 pixels wide." in after.text
    assert git(doors_project, "log", "--oneline").count("\n") == 2


def test_describe_takes_the_first_sentence_of_prose() -> None:
    assert describe("Use it **now**. Later more.") == "Use it now."
    assert describe("```bash\npip install x\n```\n\n- a list\n\nThe [real](/x) one.") == "The real one."
    assert describe("## Only a heading") == ""
    assert describe("word " * 100).endswith("…") and len(describe("word " * 100)) <= 160


def test_etag_matches() -> None:
    assert etag_matches('"a"', '"a"') and etag_matches('W/"a"', '"a"') and etag_matches("*", '"a"')
    assert etag_matches('"b", "a"', '"a"')
    assert not etag_matches(None, '"a"') and not etag_matches('"ab"', '"a"') and not etag_matches("", '"a"')


def test_sections_follow_the_docs_json_navigation(doors_project, clean_db, db_env, start_server) -> None:
    write_files(doors_project, {"docs/docs.json": json.dumps({"navigation": {"tabs": [{"tab": "Docs", "groups": [
        {"group": "Use it", "pages": ["guides/widget", {"group": "Internals", "pages": ["guides/vault"]}]},
        {"group": "Get started", "root": "install", "pages": ["index", "no-such-page"]},
    ]}]}})})
    commit_all(doors_project, "navigation")
    asyncio.run(sync_project())
    text = _get(start_server(), "/llms.txt").text
    # each section is a place as the site's navigation shows it (tab › group); the internal group: no page
    assert re.findall(r"^## (.+)$", text, re.MULTILINE) == ["Docs › Use it", "Docs › Get started"]
    assert [m for m in re.findall(r"^- \[([^\]]+)\]", text, re.MULTILINE)] == ["Embed the \\[chat\\", "Install", "Acme"]
    assert SECRET not in text and "Internals" not in text


def in_llms_order(files: dict[str, str]) -> list[tuple[str, str]]:
    """(page, its /llms.txt section) of the pages compose makes of `files`, in /llms.txt's order:
    from each page's place and page_order (its chunks carry them; sync stores them, /llms.txt reads them)."""
    result = compose_files(files, Settings(), Source(name="docs", repo=Path("."), audiences=("public",)))
    pages = [DocPage("docs", p.path, p.title, "", place=p.place, page_order=p.page_order) for p in result.pages]
    return [(p.page, section_title(p, False)) for p in sorted(pages, key=page_sort_key)]


def test_docs_json_order_on_the_mintlify_corpus() -> None:
    root = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "mintlify-docs"
    if not (root / "docs.json").exists():
        root = Path("/work/shared/corpora/mintlify-docs")
    if not (root / "docs.json").exists():
        pytest.skip("../shared/corpora/mintlify-docs is not present")
    pages = [str(p.relative_to(root)) for p in root.rglob("*.mdx") if "snippets" not in p.parts]
    # The site's navigation with a stand-in for each page: the order is the navigation's alone.
    ordered = in_llms_order({"docs.json": (root / "docs.json").read_text()} | {p: "Text.\n" for p in pages})
    sections = list(dict.fromkeys(section for _, section in ordered))
    assert sections[:5] == ["Documentation › Get started", "Documentation › Get started › CLI",
                            "Documentation › Get started › Migrate to Mintlify", "Documentation › Create content › Pages",
                            "Documentation › Create content › Formatting"]
    assert [page for page, _ in ordered[:5]] == ["index.mdx", "quickstart.mdx", "ai-native.mdx", "cli/index.mdx",
                                                 "cli/install.mdx"]
    assert dict(ordered)["api/introduction.mdx"].startswith("API reference")  # a later tab


def test_a_sphinx_sites_toctrees_order_its_pages_and_other_sites_go_by_folder() -> None:
    """A Sphinx site's order is its toctrees, as compose reads them (app/corpus/site_code.py);
    without a site configuration, pages go by folder, a folder's index page first."""
    index = "# Serve\n\n```{toctree}\n:hidden:\n\ngetting_started\nkey-concepts\nadvanced/index\nGuide <howto>\n```\n"
    pages = ["serve/index.md", "serve/key-concepts.md", "serve/howto.md", "serve/advanced/index.md",
             "serve/getting_started.md"]
    files = {page: f"# {page}\n" for page in pages} | {"serve/index.md": index,
                                                        "conf.py": 'extensions = ["myst_parser"]\nroot_doc = "serve/index"\n'}
    assert [page for page, _ in in_llms_order(files)] == [
        "serve/index.md", "serve/getting_started.md", "serve/key-concepts.md", "serve/advanced/index.md",
        "serve/howto.md"]
    pages = ["serve/b.md", "serve/index.md", "serve/a/index.md", "intro.md"]
    assert in_llms_order({page: f"# {page}\n" for page in pages}) == [
        ("intro.md", "Docs"), ("serve/index.md", "Serve"), ("serve/b.md", "Serve"), ("serve/a/index.md", "Serve › A")]


def test_a_group_split_by_a_nested_group_is_headed_once(doors_project, clean_db, db_env, start_server) -> None:
    write_files(doors_project, {"docs/docs.json": json.dumps({"navigation": {"groups": [
        {"group": "Use it", "pages": ["guides/widget", {"group": "More", "pages": ["index"]}, "install"]},
    ]}})})
    commit_all(doors_project, "navigation")
    asyncio.run(sync_project())
    text = _get(start_server(), "/llms.txt").text
    assert re.findall(r"^## (.+)$", text, re.MULTILINE) == ["Use it", "Use it › More"]
    assert re.findall(r"^- \[([^\]]+)\]", text, re.MULTILINE) == ["Embed the \\[chat\\", "Install", "Acme"]


def test_the_navigation_is_the_one_compose_reads_mkdocs_nav_and_docs_json_refs() -> None:
    """llms.txt orders pages by the navigation app/corpus/site.py reads for compose (one reading,
    stored with the rows): MkDocs' nav and a docs.json `$ref` order and place pages as they do in
    the site."""
    mkdocs = "nav:\n  - Home: index.md\n  - Guides:\n    - Second: b.md\n    - First: a.md\n"
    pages = ["docs/index.md", "docs/a.md", "docs/b.md"]
    assert in_llms_order({"mkdocs.yml": mkdocs} | {page: "Text.\n" for page in pages}) == [
        ("docs/index.md", "Docs"), ("docs/b.md", "Guides"), ("docs/a.md", "Guides")]
    nav = {"docs.json": json.dumps({"navigation": {"$ref": "nav.json"}}),
           "nav.json": json.dumps({"groups": [{"group": "Start", "pages": ["two", "one"]}]})}
    assert in_llms_order(nav | {"one.mdx": "One.\n", "two.mdx": "Two.\n"}) == [("two.mdx", "Start"), ("one.mdx", "Start")]
