"""A site's own React component that takes its children apart, read as the real build shows it.

typeorm's `DatabaseTabs` (`React.Children.toArray(children).map((child) => … child.props …)`, then
a `<Tabs>` of `<TabItem>`s each holding a database's name from a constants module in an `<h3>` and
the `<DatabaseTab>` child's children) was read as hiding its children: 1,282 words of two pages
lost (design/answer-eval.md, "A ninth stranger"). tests/data/docusaurus-components is a site with
that component, recorded from the real `docusaurus build` (scripts/record_docusaurus_components_site.py).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.chunker import Chunk
from app.corpus.compose import compose_files
from app.corpus.compose_result import ComposeResult
from app.corpus.sources import Source
from tests.helpers import copy_tree_as_repo, docschat_in_process

SITE = Path(__file__).parent / "data" / "docusaurus-components"
BUILT = json.loads((SITE.parent / "docusaurus-components.shown.json").read_text(encoding="utf-8"))["pages"]
_LIST_MARK = re.compile(r"^(?:\d+\.|[-*]) ", re.M)  # Markdown's; the browser's list markers are not innerText


def _site_files() -> dict[str, str]:
    return {path.relative_to(SITE).as_posix(): path.read_text(encoding="utf-8") for path in SITE.rglob("*") if path.is_file()}


def _compose(files: dict[str, str]) -> ComposeResult:
    return compose_files(files, Settings(), Source(name="s", repo=Path("."), dir="", audiences=("public",)))


def _page(result: ComposeResult, page: str) -> list[Chunk]:
    return [chunk for chunk in result.chunks if chunk.page == page]


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", _LIST_MARK.sub("", text).lower())


@pytest.mark.parametrize("page", sorted(BUILT))
def test_a_component_that_takes_its_children_apart_shows_what_the_build_shows(page: str) -> None:
    """Each `<DatabaseTab>`'s children under its database's name (`<h3>`, from the constants
    module), in the constants' order, not the page's; a `<DatabaseTab>` outside its tabs renders
    nothing (a marker: `() => null`); a `<Count>` that counts its children shows the count, none of
    them; `<Steps>` shows each child's title attribute and children."""
    result = _compose(_site_files())
    assert not result.warnings
    built = BUILT[page].split("\n", 1)[1]  # the title, which docschat keeps apart from the text
    assert _words("\n".join(chunk.text for chunk in _page(result, page))) == _words(built)
    # Read as the site shows them: no guess to report.
    assert result.unknown_component_counts() == {}


def test_without_its_constants_module_the_children_are_shown_unlabelled() -> None:
    """The labels come from a module the source does not hold (the evaluation stops): the
    children are shown, each `<DatabaseTab>` by its own children, in the page's order, without the
    names; the component is reported as a guess."""
    files = {path: text for path, text in _site_files().items() if not path.startswith("src/constants/")}
    result = _compose(files)
    text = "\n".join(chunk.text for chunk in _page(result, "docs/levels.mdx"))
    assert "READ UNCOMMITTED` on mysql" in text and "(default) on cockroach" in text, text
    assert text.index("on mysql") < text.index("on cockroach")
    assert "CockroachDB\n" not in text and "MySQL" not in text
    assert "A tab outside its tabs" not in text  # the marker alone still renders nothing
    assert result.unknown_component_counts() == {"DatabaseTabs": 1}


@pytest.mark.parametrize("body", [
    "const all = React.Children.toArray(children); while (true) {}; return all",  # a loop
    "React.Children.toArray(children); return children.constructor.constructor('return 1')()",  # a way out
    "const a = React.Children.toArray(children); return a.map((c) => c.props.children).concat(fetch('x'))",  # a global
    "React.Children.count(children); return useState(0)[0]",  # a hook
    "React.Children.count(children); return [{toString: () => 'x'}].join('')",  # fails as in the browser
    "const f = (n) => f(n + 1); React.Children.count(children); return f(0)",  # without end
    "React.Children.count(children); return 'x'.repeat(1e9)",  # the page's memory
    "const a = React.Children.toArray(children); return <div {...a[0]}>x</div>",  # an element spread as props
    "const a = React.Children.toArray(children); return <p>{{...'ab', t: a.length}.t}</p>",  # a string spread
])
def test_a_component_the_reader_cannot_evaluate_is_a_guess(body: str) -> None:
    """What the evaluation does not know stops it (nothing of the repository's code runs): the
    children are shown, each marker by its own children, and the component counted as a guess."""
    files = {"docusaurus.config.js": "module.exports = {};",
             "src/components/odd.jsx": f"import React from 'react'\nexport const Item = () => null\n"
                                       f"export const Odd = ({{children}}) => {{ {body} }}\n",
             "docs/a.mdx": "import {Odd, Item} from '@site/src/components/odd'\n\n# A\n\n<Odd>\n<Item>\n\nITEMWORD\n\n</Item>\n</Odd>\n\n"
                           "<Item>\n\nALONEWORD\n\n</Item>\n"}
    result = _compose(files)
    text = "\n".join(chunk.text for chunk in result.chunks)
    assert "ITEMWORD" in text and "ALONEWORD" not in text, text
    assert result.unknown_component_counts() == {"Odd": 1}


def test_a_component_that_takes_its_children_apart_under_a_condition_still_hides_them() -> None:
    """Where the evaluation stops (a hook) and the component takes its children apart only under
    a condition (`useFlag() ? Children.map(…) : null`), they stay hidden, as its code reads
    whatever the props: fail closed, counted as hiding them."""
    files = {"docusaurus.config.js": "module.exports = {};",
             "src/components/flag.jsx": "import React from 'react'\nexport const Item = () => null\n"
                                        "export const Flagged = ({children}) => useFlag() ? React.Children.map(children,\n"
                                        "  (c) => <p>{c.props.children}</p>) : null\n",
             "docs/a.mdx": "import {Flagged, Item} from '@site/src/components/flag'\n\n# A\n\nShown text.\n\n"
                           "<Flagged>\n<Item>\n\nFLAGWORD\n\n</Item>\n</Flagged>\n"}
    result = _compose(files)
    text = "\n".join(chunk.text for chunk in result.chunks)
    assert "Shown text." in text and "FLAGWORD" not in text, text
    assert result.unknown_component_counts() == {} and result.hiding_component_counts() == {"Flagged": 1}


def test_a_component_whose_children_are_data_reads_attributes_and_order() -> None:
    """The evaluation follows data: the children filtered by an attribute, sorted, their titles
    joined by a template literal; a child that is not an element the component accepts throws, as
    on the site (where the build fails): stopped, a guess."""
    component = ("import React, {Children} from 'react'\nexport const Part = () => null\n"
                 "export function Parts({children, heading}) {\n"
                 "  const parts = Children.toArray(children).filter((c) => c.props.show !== 'no')\n"
                 "  parts.sort((a, b) => Number(a.props.rank) - Number(b.props.rank))\n"
                 "  return <section><p>{`${heading}: ${parts.map((p) => p.props.title).join(', ')}`}</p>\n"
                 "    {parts.map((p) => <div key={p.props.title}>{p.props.children}</div>)}</section>\n}\n")
    page = ("import {Parts, Part} from '@site/src/components/parts'\n\n# A\n\n<Parts heading=\"Order\">\n"
            "<Part title=\"second\" rank=\"2\">\n\nSECONDWORD\n\n</Part>\n<Part title=\"gone\" show=\"no\">\n\nGONEWORD\n\n</Part>\n"
            "<Part title=\"first\" rank=\"1\">\n\nFIRSTWORD\n\n</Part>\n</Parts>\n")
    files = {"docusaurus.config.js": "module.exports = {};", "src/components/parts.jsx": component, "docs/a.mdx": page}
    result = _compose(files)
    text = "\n".join(chunk.text for chunk in result.chunks)
    # `Number` is not evaluated: a guess, every child shown in the page's order.
    assert "GONEWORD" in text and text.index("SECONDWORD") < text.index("FIRSTWORD"), text
    assert result.unknown_component_counts() == {"Parts": 1}
    files["src/components/parts.jsx"] = component.replace("Number(a.props.rank) - Number(b.props.rank)",
                                                          "(a.props.rank < b.props.rank ? -1 : 1)")
    result = _compose(files)
    text = "\n".join(chunk.text for chunk in result.chunks)
    assert "Order: first, second" in text and "GONEWORD" not in text, text
    assert text.index("FIRSTWORD") < text.index("SECONDWORD")
    assert result.unknown_component_counts() == {}


def test_a_component_the_page_defines_is_evaluated_too() -> None:
    """The page's own ESM is read as a module: a component it defines that takes its children
    apart is evaluated, with the constants the page declares and a module it imports."""
    files = {"docusaurus.config.js": "module.exports = {};", "src/names.js": "export const names = {a: 'Alpha', b: 'Beta'}\n",
             "docs/a.mdx": "import React from 'react'\nimport {names} from '@site/src/names'\n\n"
                           "export const Item = () => null\n\nexport const suffix = ' edition'\n\n"
                           "export const List = ({children}) => <dl>{React.Children.map(children, (c) =>\n"
                           "  <><dt>{names[c.props.id] + suffix}</dt><dd>{c.props.children}</dd></>)}</dl>\n\n# A\n\n"
                           "<List>\n<Item id=\"b\">\n\nBETAWORD\n\n</Item>\n<Item id=\"a\">\n\nALPHAWORD\n\n</Item>\n</List>\n"}
    result = _compose(files)
    text = "\n".join(chunk.text for chunk in result.chunks)
    assert re.search(r"Beta edition\s+BETAWORD\s+Alpha edition\s+ALPHAWORD", text), text
    assert result.unknown_component_counts() == {}

def test_compose_names_the_components_read_as_hiding_their_children_apart(tmp_path: Path) -> None:
    """`docschat compose` said of every component it had no rule for "their text is indexed": of
    typeorm's DatabaseTabs, read as hiding its children, it was not. A site component read as hiding
    them is named apart (its text is not indexed); one whose children are shown is a guess; one
    evaluated (DatabaseTabs, Steps) is neither."""
    site = tmp_path / "site"
    shutil.copytree(SITE, site)
    (site / "docs" / "guess.mdx").write_text(
        "import {DatabaseTab} from '@site/src/components/tabs/database-tabs'\n\n# Guess\n\n<Chart>\n\nShown chart.\n\n</Chart>\n\n"
        "<DatabaseTab value=\"mysql\">\n\nHIDDENWORD\n\n</DatabaseTab>\n")
    repo = copy_tree_as_repo(site, tmp_path / "repo", docs_dir="site")
    run = docschat_in_process("compose", "--repo", str(repo), "--branch", "main", "--docs-dir", "site", "--verbose")
    assert run.returncode == 0, run.stderr
    out = re.sub(r"[ \n]+", " ", run.stdout)
    assert ("1 components docschat has no rule for (their children are shown and indexed, a guess; their attributes "
            "are not): Chart\u00a0×1") in out, out
    assert ("1 of the site's own components read as hiding their children (their code never renders them: the text "
            "inside them is not indexed): DatabaseTab\u00a0×2") in out, out
    assert "component hiding its children: DatabaseTab ×2 in docs/guess.mdx, docs/levels.mdx" in run.stderr, run.stderr
    assert "DatabaseTabs" not in out + run.stderr and "Steps" not in out + run.stderr
