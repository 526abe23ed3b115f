"""A link to another page's file is written where the site publishes that page (app/corpus/page_links.py).

tests/data/site-nav's Docusaurus, MkDocs, MyST (Sphinx) and VitePress sites each have a page with `linkto-`
links to other pages' files; their recordings (scripts/record_*_site.py) hold the page each link
leads to in the real build. In docschat's chunks the same link must lead to that page's address,
the one its own chunks carry, with the link's fragment.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from app.config import Settings, get_settings
from app.corpus.compose import compose_files, iter_compose_files
from app.corpus.sources import Source
from tests.helpers import docschat_in_process, make_docs_repo, sync_configured_sources
from tests.test_site_navigation import SITES, _compose_site

_LINK = re.compile(r"\[(linkto-[a-z-]+)\]\(([^)]*)\)")


@pytest.mark.parametrize("site", ["docusaurus", "mkdocs", "myst", "vitepress", "vitepress-src"])
def test_a_link_to_a_page_file_leads_where_the_build_links_it(site: str, tmp_path: Path) -> None:
    recorded = json.loads((SITES / f"{site}.shown.json").read_text())["pages"]
    linking = {path: page["links"] for path, page in recorded.items() if page.get("links")}
    assert linking, "the recording has links"
    result = _compose_site(site, tmp_path)
    address = {chunk.page: chunk.href.split("#")[0] for chunk in result.chunks}
    for path, links in linking.items():
        written = dict(_LINK.findall(" ".join(chunk.text for chunk in result.chunks if chunk.page == path)))
        assert set(written) == set(links), path
        for text, built in links.items():
            if "page" not in built:  # an address elsewhere: as written (VitePress writes `.md` as `.html`)
                assert written[text] == built["href"] or site.startswith("vitepress") and written[text] not in address.values(), (
                    path, text)
                continue
            fragment = f"#{built['fragment']}" if built["fragment"] else ""
            assert written[text] == address[built["page"]] + fragment, (path, text)


def test_a_link_is_written_as_it_stands_when_it_names_no_page_file_of_the_site() -> None:
    files = {
        "a.md": "# A\n\nSee [b](b.md#x), [gone](missing.md), [up](../outside.md), [route](/b), [bare](b), "
                "[file](data.csv), [web](https://example.com/b.md), [self](#y).\n\n```md\n[code](b.md)\n```\n",
        "b.md": "# B\n\nB.\n",
    }
    result = compose_files(files, Settings(), Source(name="s", repo=Path("."), dir="", audiences=("public",),
                                                     base_url="https://docs.example.com"))
    text = " ".join(chunk.text for chunk in result.chunks if chunk.page == "a.md")
    assert "[b](https://docs.example.com/docs/b#x)" in text
    for kept in ("[gone](missing.md)", "[up](../outside.md)", "[route](/b)", "[bare](b)", "[file](data.csv)",
                 "[web](https://example.com/b.md)", "[self](#y)", "[code](b.md)"):
        assert kept in text, kept
    assert "\x00" not in text


def test_a_kept_page_is_composed_again_when_the_file_its_link_names_appears() -> None:
    source = Source(name="s", repo=Path("."), dir="", audiences=("public",))
    files = {"a.md": "# A\n\nSee [b](b.md).\n", "c.md": "# C\n\nC.\n"}
    blobs = dict.fromkeys(files, "1")
    first = [part for part in iter_compose_files(files, Settings(), source, blob_id=blobs.get)]
    keys = {key.page: key for part in first for key in part.page_keys}
    assert "b.md" in keys["a.md"].deps  # looked for, absent: the page depends on it
    files["b.md"], blobs["b.md"] = "# B\n\nB.\n", "2"
    again = [part for part in iter_compose_files(files, Settings(), source, known=keys, blob_id=blobs.get)]
    chunks = [chunk for part in again for chunk in part.chunks]
    assert "[b](/docs/b)" in " ".join(chunk.text for chunk in chunks if chunk.page == "a.md")


def test_docschat_ask_quotes_a_link_to_another_page_under_the_docs_base_url(tmp_path: Path, clean_db, db_env,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Synced for real (git, Postgres), asked through `docschat ask`: the quoted passage's link to
    another page's file leads to that page under DOCS_BASE_URL, as the guides do, and a path of the
    docs site an author wrote (`/limits`) too; a code block's stays as written."""
    repo = tmp_path / "acme"
    make_docs_repo(repo, {
        "caching.md": "# Caching\n\nThe query cache keeps results for 1000 ms by default; set the duration in "
                      "[the cache options](./options.md#duration) or see [limits](/limits).\n\n"
                      "```md\n[options](./options.md)\n```\n",
        "options.md": "# Options\n\n## Duration\n\nThe duration option, in milliseconds.\n",
    })
    (tmp_path / "docschat.toml").write_text('[[sources]]\nname = "docs"\nrepo = "acme"\ndir = "docs"\naudience = "public"\n')
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EMBEDDING_PROVIDER", "none")
    monkeypatch.setenv("DOCS_BASE_URL", "https://docs.example.com/base")
    get_settings.cache_clear()
    asyncio.run(sync_configured_sources())
    env = {"DATABASE_URL": clean_db, "EMBEDDING_PROVIDER": "none", "DOCS_BASE_URL": "https://docs.example.com/base"}
    asked = docschat_in_process("ask", "How long does the query cache keep results by default?", env=env)
    assert asked.returncode == 0, asked.stderr
    out = " ".join(asked.stdout.split())
    assert "(https://docs.example.com/base/docs/options#duration)" in out, asked.stdout
    assert "(https://docs.example.com/base/limits)" in out, asked.stdout
    assert "./options.md#duration" not in out, asked.stdout
