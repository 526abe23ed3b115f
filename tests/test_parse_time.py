"""The page reader's time limit on pages parsed in docschat's own process (app/corpus/parse_time.py):
reStructuredText (docutils) and MyST (markdown-it-py). A page over it is reported and not indexed;
the sync goes on."""

from __future__ import annotations

import time

import pytest

from app.config import Settings
from app.corpus import reader
from app.corpus.compose import compose_files
from app.corpus.markdown import read_page
from app.corpus.myst import Build
from app.corpus.parse_time import TimeLimitExceeded, in_time
from app.corpus.rst import render_rst


def _simple_table(rows: int, columns: int = 40) -> str:
    """A simple table docutils reads in time quadratic in its width (each cell re-measures its
    whole line): 2,000 rows of 40 columns, 9 s of CPU here, 22 s in sphinx-build 9.0.4."""
    border = " ".join(["===="] * columns)
    head = " ".join(f"h{c:<3}" for c in range(columns))
    body = "\n".join(" ".join(f"c{r % 1000:<3}" for _ in range(columns)) for r in range(rows))
    return f"{border}\n{head}\n{border}\n{body}\n{border}\n"


def test_a_page_docutils_is_slow_on_is_refused_in_bounded_time(monkeypatch) -> None:
    """The table would take seconds; with a 1 s limit the page is refused, named with the limit,
    and the next page is read."""
    monkeypatch.setattr(reader, "MAX_SECONDS", 1.0)
    files = {"conf.py": "", "index.rst": "Home\n====\n\n.. toctree::\n\n   slow\n   z\n",
             "slow.rst": "Slow\n====\n\n" + _simple_table(2_000),
             "z.rst": "Z\n=\n\nAfter it. marker-after-slow\n"}
    started = time.thread_time()  # this thread's: docutils runs in it (other tests' threads run on)
    result = compose_files(files, Settings())
    assert time.thread_time() - started < 6
    assert result.skipped_pages == ["slow.rst"]
    assert any(w.startswith("slow.rst: ") and "time limit (1 s)" in w for w in result.warnings), result.warnings
    assert "marker-after-slow" in " ".join(c.text for c in result.chunks)


def test_a_myst_page_over_the_limit_is_refused(monkeypatch) -> None:
    """markdown-it-py reads a 4,000-row table in about 3 s (linear): over a limit of 0.3 s, the
    page is refused as an RST page is; under the default, read."""
    table = "|" + "|".join(f"h{c}" for c in range(40)) + "|\n|" + "---|" * 40 + "\n"
    page = "# T\n\n" + table + "".join("|" + "|".join(f"c{r}" for _ in range(40)) + "|\n" for r in range(4_000))
    monkeypatch.setattr(reader, "MAX_SECONDS", 0.3)
    assert "time limit (0.3 s)" in str(read_page(page, mdx=False, myst=True).error)
    assert read_page("# A\n\nText *here*.\n", mdx=False, myst=True).error is None


def test_a_callback_of_the_site_runs_whole_and_the_limit_is_raised_after(monkeypatch) -> None:
    """The page's include is read by compose (a git read): never cut half way. The limit passing
    while it runs is raised when it returns; the thread then runs on."""
    monkeypatch.setattr(reader, "MAX_SECONDS", 0.3)
    ended: list[str] = []

    def include(argument: str, options: object, chain: tuple[str, ...]) -> tuple[str, str]:
        spent = time.thread_time()
        while time.thread_time() - spent < 0.6:
            pass
        ended.append(argument)
        return "part.rst", "Included text.\n"

    with pytest.raises(TimeLimitExceeded, match=r"time limit \(0.3 s\)"):
        in_time(render_rst, "Page\n====\n\n.. include:: part.rst\n\nAfter.\n", Build(include=include))
    assert ended == ["part.rst"]
    html, _ = render_rst("Page\n====\n\nStill *read*.\n", Build())
    assert "<em>read</em>" in html


def test_the_limit_is_raised_again_when_the_parse_drops_it(monkeypatch) -> None:
    """Python prints and drops an exception delivered inside a weakref callback or a __del__ (CI
    saw docutils run 10 s past a 1 s limit so): the limit is raised again until the parse ends."""
    monkeypatch.setattr(reader, "MAX_SECONDS", 0.2)
    dropped: list[BaseException] = []

    def render(text: str, build: Build) -> str:
        while True:
            try:
                spent = time.thread_time()
                while time.thread_time() - spent < 5:
                    pass
                return "read after all"
            except BaseException as exc:  # the first one dropped, as Python drops it there
                if dropped:
                    raise
                dropped.append(exc)

    started = time.thread_time()
    with pytest.raises(TimeLimitExceeded, match=r"time limit \(0.2 s\)"):
        in_time(render, "", Build())
    assert len(dropped) == 1 and time.thread_time() - started < 2
