"""The MyST differential probes (tests/data/myst-probes/): MyST pages holding marker words `zz…`,
and recorded.json saying which of them Sphinx shows (scripts/record_myst_probes.py built them with
sphinx-build and myst-parser and read each page's innerText in Chromium). Composed as pages of a
Sphinx site (a `conf.py` using myst_parser): a marker Sphinx hides must never be indexed; one it
shows should be, but for the readings kept on purpose below (hiding more than the site)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus import myst
from app.corpus.compose import compose_files

PROBES = Path(__file__).parent / "data" / "myst-probes"
RECORDED = json.loads((PROBES / "recorded.json").read_text())
# Shown markers the index leaves out on purpose, by probe, with why.
HIDDEN_ON_PURPOSE = {
    # Not on purpose, a known loss: mdit-py-plugins' footnote rule drops a definition nothing
    # references; Sphinx shows it (with a warning).
    "footnote-orphan.md": "an unreferenced footnote is dropped",
}
# The recorder's conf.py (scripts/record_myst_probes.py CONF), less its theme, and its stylesheet.
CONF = ("extensions = ['myst_parser', 'sphinx.ext.doctest', 'sphinx.ext.ifconfig', 'sphinx.ext.todo']\n"
        "myst_enable_extensions = ['colon_fence', 'dollarmath', 'substitution']\n"
        "html_static_path = ['_static']\nhtml_css_files = ['probes.css']\n")
STYLESHEET = {"_static/probes.css": (PROBES / "_static" / "probes.css").read_text()}
# The `nb-*` probes' site loads MyST-NB too (the recorder's NB_CONF).
NB_CONF = CONF.replace("['myst_parser', ", "['myst_nb', ") + "nb_execution_mode = 'off'\n"


def _indexed(name: str) -> str:
    # The probe is the site's root document (its toctree, if any, names the rest).
    conf = f"{NB_CONF if name.startswith('nb-') else CONF}root_doc = {name.removesuffix('.md')!r}\n"
    files = {"conf.py": conf, name: (PROBES / name).read_text(), **STYLESHEET}
    result = compose_files(files, Settings())
    assert not result.warnings and not result.skipped_pages, result.warnings
    return "\n".join(f"{c.title}\n{c.heading}\n{c.embed_text}" for c in result.chunks)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_no_marker_sphinx_hides_is_indexed(name: str) -> None:
    indexed = _indexed(name)
    leaked = [marker for marker in RECORDED[name]["hidden"] if marker in indexed]
    assert not leaked, f"{name}: {leaked} are hidden by {RECORDED[name]['renderer']} but indexed:\n{indexed}"


def test_markers_sphinx_shows_are_indexed() -> None:
    missing = {}
    for name, record in sorted(RECORDED.items()):
        indexed = _indexed(name)
        lost = [m for m in record["shown"] if m not in indexed]
        if lost and name not in HIDDEN_ON_PURPOSE:
            missing[name] = lost
    assert not missing, f"{sum(map(len, missing.values()))} shown markers not indexed: {missing}"


def test_every_probe_is_recorded() -> None:
    assert {p.name for p in PROBES.glob("*.md")} == set(RECORDED), "re-run scripts/record_myst_probes.py"


# --- What an HTML build shows that the probes do not say: `{only}`, raw HTML, substitutions ------

def _composed(conf: str, page: str) -> tuple[str, list[str]]:
    result = compose_files({"conf.py": conf, "index.md": page}, Settings())
    assert not result.skipped_pages
    return "\n".join(page.body for page in result.pages), result.warnings


def _only(expression: str, conf: str = "extensions = ['myst_parser']\n") -> bool:
    indexed, _ = _composed(conf, f"# T\n\n```{{only}} {expression}\nzzonly\n```\n")
    return "zzonly" in indexed


@pytest.mark.parametrize(("expression", "shown"), [
    ("html", True), ("format_html and builder_html", True), ("not latex", True), ("(html or internal)", True),
    ("internal", False), ("not internal", False),  # a tag conf.py or `-t` may add: not decided, hidden
    ("html and internal", False), ("latex or epub", False), ("not html", False),
    ("true", False), ("html if internal else latex", False), ("html-internal", False), ("(html", False),
    ("html )", False), ("(" * 5000 + "html" + ")" * 5000, False),  # Sphinx warns and shows these: hidden here
])
def test_only_is_shown_when_its_expression_is_certainly_true_for_html(expression: str, shown: bool) -> None:
    assert _only(expression) is shown


@pytest.mark.parametrize(("conf", "shown"), [
    ("if x:\n    tags.add('internal')\n", True),  # another tag
    ("tags.remove('html')\n", False),
    ("tags.add(name)\n", False),  # any tag
    ("def setup(app):\n    app.tags.add('latex')\n", False),
    ("setup_tags(tags)\n", False),
    ("if tags.has('latex') or 'latex' in tags:\n    pass\n", True),  # read only
])
def test_a_tag_conf_py_may_change_is_not_decided(conf: str, shown: bool) -> None:
    assert _only("html and not latex", "extensions = ['myst_parser']\n" + conf) is shown


# A directive none of the site's extensions defines shows nothing (the `directive-unknown` probe);
# where conf.py does not say all that is loaded, any name may be defined, and the directive shows.
@pytest.mark.parametrize(("conf", "shown"), [
    ("extensions = ['myst_parser']\n", False),
    ("extensions = ['myst_parser', 'sphinxcontrib.mermaid']\n", True),  # it defines {mermaid}
    ("extensions = ['myst_parser']\nhtml_theme = 'sphinx_book_theme'\n", False),
    ("extensions = ['myst_parser', 'local_extension']\n", True),  # not recorded
    ("extensions = ['myst_parser']\nextensions.append('sphinxcontrib.mermaid')\n", True),
    ("extensions = ['myst_parser']\ndef setup(app):\n    app.add_directive('mermaid', Mermaid)\n", True),
    ("extensions = ['myst_parser']\nhtml_theme = 'local_theme'\n", True),
    ("extensions = ['myst_parser']\nlanguage = 'de'\n", True),  # docutils reads translated names
])
def test_a_directive_the_site_does_not_define_shows_nothing(conf: str, shown: bool) -> None:
    indexed, _ = _composed(conf, "# T\n\n```{mermaid}\ngraph TD; zzdiagram\n```\n")
    assert ("zzdiagram" in indexed) is shown


# A role none of the site's extensions defines shows nothing (the `role-unknown` probe); where
# conf.py does not say all that is loaded, any name may be defined, and the role shows its text.
@pytest.mark.parametrize(("conf", "shown"), [
    ("extensions = ['myst_parser']\n", False),
    ("extensions = ['myst_parser', 'sphinx_design']\n", True),  # it defines {bdg-primary}
    ("extensions = ['myst_parser', 'local_extension']\n", True),  # not recorded
    ("extensions = ['myst_parser']\nextensions.append('sphinx_design')\n", True),
    ("extensions = ['myst_parser']\ndef setup(app):\n    app.add_role('bdg-primary', Badge())\n", True),
    ("extensions = ['myst_parser']\nprimary_domain = 'c'\n", True),  # its bare names are the c domain's
    ("extensions = ['myst_parser']\nlanguage = 'de'\n", True),
])
def test_a_role_the_site_does_not_define_shows_nothing(conf: str, shown: bool) -> None:
    indexed, _ = _composed(conf, "# T\n\nA {bdg-primary}`zzbadge` here.\n")
    assert ("zzbadge" in indexed) is shown


@pytest.mark.parametrize(("conf", "shown"), [
    ("extensions = ['myst_nb']\n", True),
    ("extensions = ['myst_nb']\nnb_remove_code_source = True\n", False),  # every cell's, unless its own say
    ("extensions = ['myst_parser']\nnb_remove_code_source = True\n", False),  # no MyST-NB: no cell at all
])
def test_conf_py_may_remove_every_cells_source(conf: str, shown: bool) -> None:
    page = "---\nfile_format: mystnb\n---\n# T\n\n```{code-cell} python\nprint('zzcell')\n```\n"
    indexed, _ = _composed(conf, page)
    assert ("zzcell" in indexed) is shown


def test_an_rst_only_with_its_expression_continued_is_hidden() -> None:
    page = "# T\n\n```{eval-rst}\n.. only:: html\n   and internal\n\n   zzcontinued\n\n.. only:: html\n\n   zzshown\n```\n"
    indexed, _ = _composed("extensions = ['myst_parser']\n", page)
    assert "zzshown" in indexed and "zzcontinued" not in indexed


def test_raw_html_shows_what_a_browser_shows_of_it() -> None:
    page = ("# T\n\n```{raw} html latex\n<p>zzboth</p>\n```\n\n```{raw} html\n:file: other.html\n```\n\n"
            "```{eval-rst}\n.. raw:: html\n   :file: x.html\n\n.. raw:: html\n   <p>zzargument</p>\n\n"
            ".. raw:: latex\n   html\n\n   <p>zzcontinued</p>\n\n.. raw:: html\n   :class: a\n   <p>zzoption</p>\n\n"
            "   <p>zzcontent</p>\n```\n\n"
            "```{raw} html\n:class: hidden\n\n<p>zzclass</p>\n```\n\n"
            "```{raw} html\n<p>zzbefore</p><!-- never closed\n```\n\nzzafter: the comment runs on, as in the browser.\n")
    indexed, _ = _composed("extensions = ['myst_parser']\n", page)
    assert "zzboth" in indexed and "zzbefore" in indexed and "zzcontinued" in indexed  # docutils reads each so
    assert "eval-rst" not in indexed  # nothing of its reStructuredText is shown: no empty code block either
    assert not {"zzargument", "zzoption", "zzcontent", "zzclass", "zzafter", "other.html", "x.html"} & set(re.findall(r"[\w.]+", indexed))


SUBSTITUTING = "extensions = ['myst_parser']\nmyst_enable_extensions = ['substitution']\n"


@pytest.mark.parametrize(("conf", "page", "shown", "warned"), [
    # The extension off: `{{ x }}` is text.
    ("extensions = ['myst_parser']\nmyst_substitutions = {'x': 'zzvalue'}\n", "A {{ x }} b.", "A {{ x }} b.", False),
    (SUBSTITUTING + "myst_substitutions = {'x': 'zzvalue'}\n", "A {{ x }} b.", "A zzvalue b.", False),
    # A Jinja expression, an undefined name, a name in its own value: nothing.
    (SUBSTITUTING + "myst_substitutions = {'x': 'zzvalue', 'y': '{{ y }}'}\n", "A {{ x | upper }} {{ z }} {{ y }} b.",
     "A    b.", False),
    # `env` is Sphinx's build environment, whatever conf.py or the page says (the site shows its repr).
    (SUBSTITUTING + "myst_substitutions = {'env': 'zzvalue'}\n", "A {{ env }} b.", "A  b.", False),
    (SUBSTITUTING, "---\nmyst:\n  substitutions:\n    env: zzpage\n---\nA {{ env }} b.", "A  b.", False),
    # Values that are code: the literal ones shown, with a warning.
    (SUBSTITUTING + "myst_substitutions = {'x': 'zzvalue', 'v': version}\n", "{{ x }} {{ v }}", "zzvalue", True),
    (SUBSTITUTING + "myst_substitutions = dict(x='zzvalue')\n", "A {{ x }} b.", "A  b.", True),
    # Changed after it is assigned: none is shown.
    (SUBSTITUTING + "myst_substitutions = {'x': 'zzold'}\nmyst_substitutions['x'] = 'zznew'\n", "A {{ x }} b.", "A  b.", True),
    # Bound again by code that is not a plain assignment (Sphinx 9.0.4 + myst-parser 5.2.0 show zznew, or
    # refuse a module): none is shown.
    *[(SUBSTITUTING + "myst_substitutions = {'x': 'zzold'}\n" + code, "A {{ x }} b.", "A  b.", True) for code in (
        "for myst_substitutions in [{'x': 'zznew'}]:\n    pass\n", "myst_substitutions, y = {'x': 'zznew'}, 1\n",
        "(myst_substitutions := {'x': 'zznew'})\n", "globals()['myst_substitutions'] = {'x': 'zznew'}\n",
        "import contextlib\nwith contextlib.nullcontext({'x': 'zznew'}) as myst_substitutions:\n    pass\n",
        "from os import path as myst_substitutions\n", "from shared_conf import *\n",
        "import sys\nsys.modules[__name__].myst_substitutions = {'x': 'zznew'}\n",
        "if tags.has('x'):\n    myst_substitutions = {'x': 'zznew'}\n", "exec(open('shared_conf.py').read())\n",
        "import shared\nglobals().update(shared.CONFIG)\n")],
    # Other delimiters than MyST's: docschat leaves the extension off.
    (SUBSTITUTING + "myst_sub_delimiters = ('|', '|')\nmyst_substitutions = {'x': 'zz'}\n", "A {{ x }} b.", "A {{ x }} b.", False),
    # The page's own, under `myst:` or (deprecated) at the top level, win over conf.py's.
    (SUBSTITUTING + "myst_substitutions = {'x': 'zzconf'}\n", "---\nmyst:\n  substitutions:\n    x: zzpage\n---\n{{ x }}",
     "zzpage", False),
    (SUBSTITUTING, "---\nsubstitutions:\n  x: zzpage\n---\n{{ x }}", "zzpage", False),
    # The page's own `myst:` settings replace conf.py's (Sphinx 9.0.4 + myst-parser 5.2.0): the extension
    # off, on, or other delimiters than MyST's.
    (SUBSTITUTING + "myst_substitutions = {'x': 'zzconf'}\n",
     "---\nmyst:\n  enable_extensions: []\n  substitutions:\n    y: zzpage\n---\nA {{ x }} {{ y }} b.", "A {{ x }} {{ y }} b.", False),
    ("extensions = ['myst_parser']\n", "---\nmyst:\n  enable_extensions: [substitution]\n  substitutions:\n    x: zzpage\n---\n"
     "A {{ x }} b.", "A zzpage b.", False),
    (SUBSTITUTING + "myst_substitutions = {'x': 'zzconf'}\n", "---\nmyst:\n  sub_delimiters: ['|', '|']\n---\nA {{ x }} b.",
     "A {{ x }} b.", False),
    # A key that is not a string: myst-parser drops the page's, or refuses conf.py's MyST configuration
    # and uses its defaults, the extension off (as Sphinx 9.0.4 + myst-parser 5.2.0 build them).
    (SUBSTITUTING + "myst_substitutions = {'x': 'zzconf'}\n", "---\nmyst:\n  substitutions:\n    x: zzpage\n    1: one\n---\n"
     "A {{ x }} b.", "A zzconf b.", False),
    (SUBSTITUTING + "myst_substitutions = {'x': 'zzconf', 1: 'one'}\n", "A {{ x }} b.", "A {{ x }} b.", False),
])
def test_substitutions_show_their_literal_values(conf: str, page: str, shown: str, warned: bool) -> None:
    indexed, warnings = _composed(conf, page)
    assert indexed.strip() == shown
    assert any("myst_substitutions" in w for w in warnings) is warned, warnings


def test_a_heading_in_a_shown_only_is_a_section() -> None:
    """Sphinx builds `{only} html`'s content as if the fence were not there: its `##` is a section
    (Sphinx 9.0.4 + myst-parser 5.2.0 write `<section id="sub">`), not a directive's bold title."""
    result = compose_files({"conf.py": "extensions = ['myst_parser']\n",
                            "index.md": "# T\n\nIntro.\n\n```{only} html\n## Sub\n\nzzinside\n```\n"}, Settings())
    assert [c.heading for c in result.chunks if "zzinside" in c.text] == ["Sub"]


def test_substitutions_that_expand_without_end_skip_the_page_alone() -> None:
    """Each value names the next one six times: 6**8 pastes (myst-parser pastes them all, Sphinx
    never ends). The page is skipped with a warning, in bounded time; the other page is composed."""
    subs = {f"n{i}": " ".join([f"{{{{ n{i + 1} }}}}"] * 6) for i in range(8)} | {"n8": "zzleaf"}
    files = {"conf.py": f"{SUBSTITUTING}myst_substitutions = {subs!r}\n",
             "index.md": "# T\n\n```{toctree}\nother\n```\n\nA {{ n0 }} b.\n", "other.md": "# O\n\nzzother {{ n7 }}\n"}
    result = compose_files(files, Settings())
    assert result.skipped_pages == ["index.md"]
    assert any("index.md" in w and "substitution" in w for w in result.warnings), result.warnings
    assert [page.body for page in result.pages] == ["# O\n\nzzother " + " ".join(["zzleaf"] * 6)]


def test_a_front_matter_value_written_out_too_long_is_not_shown() -> None:
    """YAML aliases: `g` is 9**7 items long written out (39 MB; three levels more, 28 GB, and the
    sync ran out of memory though no page used it). It shows nothing, as a name with no value;
    the short one shows."""
    front = "---\nmyst:\n  substitutions:\n    short: zzshort\n    a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n"
    for name, previous in zip("bcdefg", "abcdef", strict=True):
        front += f"    {name}: &{name} [{', '.join([f'*{previous}'] * 9)}]\n"
    result = compose_files({"conf.py": SUBSTITUTING, "index.md": front + "---\n# T\n\nA {{ short }} {{ g }} b.\n"},
                           Settings())
    assert [page.body for page in result.pages] == ["# T\n\nA zzshort  b."], result.warnings


def test_a_page_using_substitutions_many_times_is_read() -> None:
    """40,000 uses of one value in a table (a long page, not a value naming another) are pasted."""
    page = "# T\n\n|a|b|\n|-|-|\n" + "|{{ v }}|{{ v }}|\n" * 20_000
    result = compose_files({"conf.py": SUBSTITUTING + "myst_substitutions = {'v': 'zzv'}\n", "index.md": page}, Settings())
    assert not result.skipped_pages, result.warnings
    assert sum(page.body.count("zzv") for page in result.pages) == 40_000


def test_raw_html_in_a_directive_title_or_caption_is_html() -> None:
    """MyST reads a directive's title and a code caption as inline Markdown: Sphinx 9.0.4 +
    myst-parser 5.2.0 show "Title zzB", "zzB" and "cap", none of the hidden text."""
    page = ("# T\n\n```{admonition} Title <span hidden>SECRET1</span> zzB\nzzC\n```\n\n"
            ":::{admonition} Title <!-- SECRET2 --> zzB\nzzC\n:::\n\n```{topic} zzB <span hidden>SECRET3</span>\nzzC\n```\n\n"
            "```{code-block} python\n:caption: <span hidden>SECRET4</span> cap\nx = 1\n```\n")
    indexed, _ = _composed("extensions = ['myst_parser']\nmyst_enable_extensions = ['colon_fence']\n", page)
    assert indexed.count("zzB") == 3 and "cap" in indexed and "SECRET" not in indexed, indexed


@pytest.mark.parametrize(("extensions", "hidden"), [("['attrs_inline', 'attrs_block']", True), ("[]", False)])
def test_attrs_classes_follow_conf_py(extensions: str, hidden: bool) -> None:
    """conf.py's myst_enable_extensions turns the attrs extensions on: `{.internal-note}` then
    puts the class the site's stylesheet hides on the block (Sphinx hides it); off, it is text."""
    conf = f"{CONF}myst_enable_extensions = {extensions}\n"
    result = compose_files({"conf.py": conf, "index.md": "# T\n\nShown.\n\n{.internal-note}\nATTRSWORD\n", **STYLESHEET},
                           Settings())
    indexed = "\n".join(page.body for page in result.pages)
    assert "Shown." in indexed and ("ATTRSWORD" not in indexed) == hidden, indexed


@pytest.mark.parametrize("conf, hidden", [
    ("extensions = ['myst_parser']\nmyst_enable_extensions = ['fieldlist']\n", True),
    ("extensions = ['myst_parser']\n", False),  # off: `:name: value` is a paragraph, as Sphinx shows it
])
def test_a_leading_field_list_is_the_pages_metadata_with_the_fieldlist_extension(conf: str, hidden: bool) -> None:
    """docutils' DocInfo takes a field list opening the page as its metadata, which Sphinx does not
    show (myst-probes `fieldlist-docinfo.md`); a later field list is shown."""
    page = "% a comment first\n\n:owner: SECRETWORD\n:status: draft\n\n# Title\n\nText.\n\n:shown: SHOWNWORD\n"
    result = compose_files({"conf.py": conf, "index.md": page}, Settings())
    text = "\n".join(p.body for p in result.pages)
    assert "SHOWNWORD" in text and "Text." in text, text
    assert ("SECRETWORD" in text) is not hidden, text


def test_a_mermaid_diagram_loses_its_options() -> None:
    """sphinxcontrib-mermaid takes `:align:` and `:zoom:` as options, never shown (structlog's
    docs built with it: design/site-navigation.md, session 30); the diagram's text stays, as code."""
    conf = "extensions = ['myst_parser', 'sphinxcontrib.mermaid']\n"
    shown, warnings = _composed(conf, "# Flow\n\n```{mermaid}\n:align: center\n:zoom:\n\nflowchart TD\n"
                                      "    zzmermaidnode --> Output\n```\n")
    assert "zzmermaidnode" in shown and not warnings
    assert "align" not in shown and "zoom" not in shown


def test_an_include_never_shows_a_file_for_fewer_audiences() -> None:
    """`{include}` pastes the file as the site does (tests/data/site-nav/myst's index.md, recorded),
    but a public page never shows a file that declares itself internal: a warning instead. The
    included file's front matter is not shown (sphinx-build 9.0.4 with myst-parser 5.2.0 shows none)."""
    files = {"conf.py": "extensions = ['myst_parser']\n",
             "index.md": "---\naudience: public\n---\n# Home\n\n```{include} staff.md\n```\n\n"
                         "```{include} team.md\n```\n",
             "staff.md": "---\naudience: internal\n---\nzzstaffonly\n",
             "team.md": "---\nowner: zzfrontmatter\n---\nzzteamshown\n"}
    result = compose_files(files, Settings())
    shown = " ".join(chunk.text for chunk in result.chunks if chunk.page == "index.md")
    assert "zzteamshown" in shown and "zzstaffonly" not in shown and "zzfrontmatter" not in shown
    assert any("staff.md" in warning and "not pasted" in warning for warning in result.warnings), result.warnings


def test_a_directives_yaml_options_are_bounded() -> None:
    # YAML aliases nest a list 9**6 items long in six lines: read, never written out whole (a
    # cell's tags still read beside it).
    aliases = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{name}: &{name} [{', '.join([f'*{prior}'] * 9)}]\n" for prior, name in zip("abcde", "bcdef", strict=True))
    options, body = myst.directive_options(f"---\n{aliases}tags:\n  - remove-input\n---\nzzbody\n", "code-cell")
    assert body == "zzbody\n" and "remove-input" in options["tags"]
    assert all(len(value) <= 100_000 for value in options.values())
