"""docs/ is the user documentation and the demo's corpus: every page of it must be indexed.

An edit that breaks a page's MDX (a `<code>` written as text in session 28) drops the page from the
demo's index with only a warning in the sync's output; here it fails the suite.
"""

from __future__ import annotations

from app.config import Settings
from app.corpus.compose import compose_files
from tests.conftest import REPO_ROOT


def test_every_page_of_the_user_docs_is_read_without_a_warning() -> None:
    docs = REPO_ROOT / "docs"
    files = {str(p.relative_to(docs)): p.read_text(encoding="utf-8") for p in sorted(docs.rglob("*")) if p.is_file()}
    result = compose_files(files, Settings(docs_default_audience="public"))
    assert result.skipped_pages == [] and result.warnings == [], (result.skipped_pages, result.warnings)
    pages = {path for path in files if path.endswith(".mdx") and not path.startswith("snippets/")}  # snippets are pasted
    assert {page.path for page in result.pages} >= pages
