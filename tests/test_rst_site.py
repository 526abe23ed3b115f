"""A Sphinx site of reStructuredText pages (issue 46), read by docutils as Sphinx reads it
(app/corpus/rst.py) and compared with what the real build shows: tests/data/site-nav/rst, recorded
by scripts/record_rst_site.py into rst.shown.json (sphinx-build 9, Chromium's innerText of each
page's main part, and each section's id). Before, docschat read no `.rst` page: Flask's docs
indexed nothing (design/answer-eval.md, the seventeenth stranger)."""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.compose import compose_files
from app.corpus.myst import Build
from app.corpus.rst import render_rst
from app.corpus.rst_metadata import rst_metadata
from app.corpus.site import FRONT_MATTER, NOT_BUILT, OUTSIDE
from app.corpus.sources import Source

SITE = Path(__file__).parent / "data" / "site-nav" / "rst"
RECORDED = json.loads((SITE.parent / "rst.shown.json").read_text())["pages"]
FILES = {path.relative_to(SITE).as_posix(): path.read_text() for path in SITE.rglob("*") if path.is_file()}


@pytest.fixture(scope="module")
def composed():
    return compose_files(FILES, Settings())


def test_every_page_shows_what_the_build_shows(composed) -> None:
    assert composed.pages and not composed.skipped_pages
    for page in composed.pages:
        built = RECORDED[page.path]
        assert built["built"], f"{page.path} is indexed, yet the site publishes no page"
        indexed = " ".join(c.embed_text for c in composed.chunks if c.page == page.path)
        assert [m for m in built["shown"] if m not in indexed] == [], page.path
        assert [m for m in built["hidden"] if m in indexed] == [], page.path
    # Comments, `only` false, a todo, an unknown directive, raw LaTeX and hidden raw HTML, an unused
    # substitution, a link target's URL: each is on a page and hidden by the build.
    assert sum(len(p.get("hidden", [])) for p in RECORDED.values() if p["built"]) >= 12


def test_the_pages_left_out_are_those_the_site_leaves_out(composed) -> None:
    """Sphinx builds a page in no toctree too (it warns); docschat leaves it out of the index, as
    it does a MyST page, unless it says `:orphan:`; `:nosearch:` leaves it out of the site's search."""
    indexed = {page.path for page in composed.pages}
    assert indexed == {"index.rst", "api.rst", "guide/install.rst", "guide/config.rst", "guide/objects.rst", "guide/notes.md",
                       "guide/scoped.rst"}
    assert {path: why.kind for path, why in composed.excluded} == {
        "includes/shared.rst": NOT_BUILT, "lost.rst": OUTSIDE, "orphan.rst": FRONT_MATTER}


def test_section_anchors_are_the_ids_sphinx_gives_them(composed) -> None:
    """A result links to the section's id as Sphinx made it: docutils' id of its title, an `idN`
    for a repeated title (numbered with the other automatic ids of the page: a hidden todo's too);
    a Python object's description is a section of its own, at its `<dt id>` (its full name, its
    module's and class's before it), headed by its signature as Sphinx writes it."""
    for path, built in RECORDED.items():
        if path not in {page.path for page in composed.pages}:
            continue
        sections, objects = dict(built["sections"][1:]), dict(built["objects"])
        anchors = {c.href.partition("#")[2]: c.heading for c in composed.chunks if c.page == path and "#" in c.href}
        assert {anchor: title for anchor, title in anchors.items() if anchor in sections} == sections, path
        assert {anchor: title for anchor, title in anchors.items() if anchor not in sections} == {
            anchor: signature for anchor, signature in objects.items() if anchor in anchors}, path
    headed = {c.href.partition("#")[2] for c in composed.chunks}
    assert {"fixture.run", "fixture.App", "DEBUG"} <= headed  # a method is a fourth level: in its class's chunk
    # The other domains' objects: a setting, an option of `.. program::`, an environment variable, C's, JavaScript's.
    assert {"confval-SECRET_KEY", "confval-SECRET_SALT", "cmdoption-flask-run-port", "cmdoption-flask-run-debug",
            "envvar-FLASK_APP", "c.add", "c.MAX_SIZE", "fetchData", "Client"} <= headed


def test_a_settings_type_and_default_show_first(composed) -> None:
    """A `confval`'s `:type:` and `:default:` are a field list first in its content, as the build shows them."""
    built = RECORDED["guide/objects.rst"]["text"]
    assert "SECRET_SALT\nType:\nstr\nDefault:\nNone\n" in built
    salt = next(c.text for c in composed.chunks if c.href.endswith("#confval-SECRET_SALT"))
    assert " ".join(salt.replace("`", "").split()).startswith("### SECRET_SALT Type: str Default: None The key")


def test_autodoc_shows_nothing_and_is_named() -> None:
    """autodoc's text is the project's docstrings, read by importing it: docschat never runs the
    project, so the directive shows nothing (no directive markup as text) and the sync says so."""
    result = compose_files(FILES, Settings())
    assert result.warnings == ["guide/config.rst: autoclass shows what Sphinx reads by importing the project, which "
                               "docschat never does: shown as nothing"]
    indexed = " ".join(c.embed_text for c in result.chunks)
    assert "autoclass" not in indexed and "members" not in indexed


def test_a_page_is_read_safely() -> None:
    """No file is read by docutils (an include pastes what compose lets the page read), no error
    text is shown, and a hostile page does not stop the sync."""
    html, _ = render_rst(".. include:: /etc/passwd\n\n.. raw:: html\n   :file: /etc/passwd\n\n"
                         ".. csv-table::\n   :file: /etc/passwd\n\n:bad:`role` and `broken <\n", Build())
    assert "root:" not in html and "System Message" not in html and "Unknown" not in html
    deep = "\n\n".join("  " * depth + "- item" for depth in range(400))
    result = compose_files({"conf.py": "", "index.rst": f"Deep\n====\n\n{deep}\n", "other.rst": ":orphan:\n\nOther\n=====\n"},
                           Settings())
    assert "other.rst" in {page.path for page in result.pages}  # the sync goes on
    assert "index.rst" in {page.path for page in result.pages} or result.warnings


def test_the_metadata_is_the_leading_field_list() -> None:
    assert rst_metadata(".. a comment\n   continued\n\n:orphan:\n:audience: internal\n\nTitle\n=====\n") == {
        "orphan": True, "audience": "internal"}
    assert rst_metadata("Title\n=====\n\n:orphan:\n") == {}


# Leading field lists as docutils reads them (its DocInfo, Sphinx's metadata): a value running over
# indented lines, a blank line inside a field's body or between fields; a field list after text or
# after the title is the body's, shown and never metadata.
LEADING_FIELDS = [
    ":description: A long\n   description.\n:audience: internal\n\nSecret\n======\n\nx\n",
    ":audience:\n   internal\n\nSecret\n======\n",
    ":description: A\n\n   second paragraph.\n:audience: internal\n\nSecret\n======\n",
    ":orphan:\n\n:audience: internal\n\nSecret\n======\n",
    ":audience:\tinternal\n\nSecret\n======\n",
    "Some text first.\n\n:audience: internal\n\nSecret\n======\n",
    "Secret\n======\n\n:audience: internal\n\nx\n",
]


def _docinfo(text: str) -> dict[str, object]:
    from docutils import nodes
    from docutils.core import publish_doctree

    document = publish_doctree(text, settings_overrides={"doctitle_xform": False, "report_level": 5, "_disable_config": True})
    return {field[0].astext().lower(): " ".join(field[1].astext().split()) or True
            for info in document.findall(nodes.docinfo) for field in info.children if isinstance(field, nodes.field)}


def test_the_metadata_is_what_docutils_reads_as_docinfo() -> None:
    for text in LEADING_FIELDS:
        assert rst_metadata(text) == _docinfo(text), text


def test_an_audience_declared_where_it_is_not_read_makes_the_page_internal() -> None:
    """A multi-line field before `:audience:` no longer hides it; an `:audience:` Sphinx does not
    read as metadata (a field list of the body), or spelled almost so, makes the page internal, with
    a warning: never public by default."""
    public = Source(name="s", repo=Path("."), dir=".", audiences=("public",))
    for text in [*LEADING_FIELDS, ":audeince: public\n\nSecret\n======\n"]:
        result = compose_files({"conf.py": "", "index.rst": text}, Settings(), public)
        assert [page.audiences for page in result.pages] == [("internal",)], text
        assert bool(result.warnings) == ("audience" not in _docinfo(text)), text


def test_a_page_declaring_an_audience_keeps_it() -> None:
    """`:audience: internal` in the page's metadata is its front matter: the page stays internal."""
    public = Source(name="s", repo=Path("."), dir=".", audiences=("public",))
    files = {"conf.py": "", "index.rst": ":audience: internal\n\nSecret\n======\n\nmarker-secret\n",
             "open.rst": ":orphan:\n\nOpen\n====\n"}
    result = compose_files(files, Settings(), public)
    assert {page.path: page.audiences for page in result.pages} == {"index.rst": ("internal",), "open.rst": ("public",)}


def test_a_source_suffix_without_rst_builds_no_rst_page() -> None:
    result = compose_files({"conf.py": 'source_suffix = {".txt": "restructuredtext"}\n', "index.txt": "x",
                            "index.rst": "Home\n====\n", "notes.md": "# Notes\n"}, Settings())
    assert "index.rst" not in {page.path for page in result.pages}


def test_cross_references_link_to_the_page_the_build_links(composed) -> None:
    """`:doc:` and `:ref:` (with their titles or one of their own) link where the build links them,
    and so does a MyST page's link to a `.rst` file (myst-parser resolves it to the page), and a
    Python role to an object the site describes (`:func:`, `:meth:`, `:class:`: code in a link)."""
    linked: dict[tuple[str, str], str] = {}
    for chunk in composed.chunks:
        for text, address in re.findall(r"\[([^\]]+)\]\(([^)]+)\)", chunk.text):
            linked[(chunk.page, " ".join(text.replace("`", "").split()))] = address
    compared = 0
    for page in ("index.rst", "guide/objects.rst", "guide/notes.md", "guide/config.rst", "guide/scoped.rst"):
        for text, href in RECORDED[page]["links"]:
            if (page, text) not in linked or not href.partition("#")[0].endswith(".html"):
                continue  # the toctree's links (docschat indexes no navigation)
            path, _, anchor = href.partition("#")
            route = posixpath.normpath(posixpath.join(posixpath.dirname(page), path)).removesuffix(".html")
            assert linked[(page, text)] == f"/docs/{route}".removesuffix("/index") + (f"#{anchor}" if anchor else ""), text
            compared += 1
    assert compared >= 13
    assert all(("guide/config.rst", text) in linked for text in ("run()", "fixture.App.start()", "App"))
    assert [(page, text) for page, text in linked if page == "guide/scoped.rst"] == [  # `.run`, `.DEBUG`
        ("guide/scoped.rst", "run()"), ("guide/scoped.rst", "DEBUG")]
    # A link written to a page's file Sphinx leaves as written (`install.rst`: a missing page on the
    # site); docschat links the page it names, as it does a link written to a `.md` page.
    assert ["written", "install.rst"] in RECORDED["guide/objects.rst"]["links"]
    assert linked[("guide/objects.rst", "written")] == "/docs/guide/install"


def test_extlinks_roles_are_links_as_the_build_makes_them(composed) -> None:
    """sphinx.ext.extlinks' roles, from conf.py's literal `extlinks`: the caption with the part
    filled in (`#123`), a title of its own, the URL when the caption is None, each a link to the URL."""
    recorded = [link for link in RECORDED["guide/objects.rst"]["links"] if link[1].startswith("https://")]
    assert len(recorded) == 3
    indexed = " ".join(" ".join(c.text.split()) for c in composed.chunks if c.page == "guide/objects.rst")
    for text, href in recorded:
        assert (f"[{text}]({href})" if text != href else f" {href};") in indexed, text  # a URL as its own text: bare


@pytest.mark.parametrize(("page", "marker"), [("guide/config.rst", "marker-rst-roles-shown"),
                                              ("guide/notes.md", "marker-myst-roles-shown")])
def test_roles_show_what_sphinx_writes(composed, page: str, marker: str) -> None:
    """`:func:` with "()" (add_function_parentheses), `~` the last name, `:ref:` the section's
    title, an explicit title: the sentence as the build's innerText has it (inline code as code
    spans here), on a reStructuredText page and on a MyST page (one rule for both: sphinx_roles)."""
    sentence = next(line for line in RECORDED[page]["text"].splitlines() if marker in line)
    indexed = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", " ".join(c.text for c in composed.chunks if c.page == page))
    indexed = indexed.replace("`", "")
    assert sentence in " ".join(indexed.split())
    assert "`run()`" in " ".join(c.text for c in composed.chunks)  # code, as Sphinx writes it


def test_an_extlinks_role_is_the_sites_own() -> None:
    """docutils' role registry is the process's: a site without the extlink (read after one with it)
    shows the role as written, as docutils shows a role it does not know; a base URL Sphinx cannot
    fill (`%d`) stops its build, and here shows the role as written too, never raising."""
    with_it = Build(extlinks=(("issue", "https://example.com/issues/%s", "#%s"), ("bad", "https://example.com/%d", "%s")))
    assert 'href="https://example.com/issues/7">#7</a>' in render_rst("See :issue:`7`.\n", with_it)[0]
    assert ":bad:`x`" in render_rst("See :bad:`x`.\n", with_it)[0]
    assert ":issue:`7`" in render_rst("See :issue:`7`.\n", Build())[0]


def test_a_code_blocks_caption_is_read_as_the_build_reads_it(composed) -> None:
    """A `code-block`'s or `literalinclude`'s `:caption:` shows over the code, its ``literal`` as
    code and its **strong** as text, as the build's innerText has it."""
    built = RECORDED["guide/objects.rst"]["text"]
    assert "\napp.py in bold\napp = 1" in built and "\nexample.py\ndef example" in built
    code = next(c.text for c in composed.chunks if c.href.endswith("/guide/objects#code"))
    assert "`app.py` in **bold**\n\n```" in code and "`example.py`\n\n```" in code and "``" not in code.replace("```", "")


def test_a_recorded_extensions_directive_is_read() -> None:
    """Every recorded name is registered, an extension's too (sphinx-tabs' `tab`, which Flask's
    pages use): its content shows, where an unknown directive shows nothing."""
    html, _ = render_rst(".. tabs::\n\n   .. tab:: Bash\n\n      marker-tab-content\n", Build())
    assert "marker-tab-content" in html


def test_a_cross_reference_to_an_internal_page_neither_links_nor_titles_it() -> None:
    """A public page's `:doc:` or `:ref:` (its own title too) to an internal page shows no title of
    it and no link to it: its address would tell the public the page is there."""
    public = Source(name="s", repo=Path("."), dir=".", audiences=("public",))
    files = {"conf.py": "", "index.rst": "Home\n====\n\n.. toctree::\n\n   secret\n\nSee :doc:`secret`, :doc:`this <secret>` "
             "and :ref:`hidden-label`, :func:`tool.run` and :func:`tool.open`.\n",
             "secret.rst": ":audience: internal\n\n.. _hidden-label:\n\nSecret title\n============\n\n"
                           ".. py:function:: tool.run()\n\n   Runs.\n",
             "public.rst": ":orphan:\n\nOpen\n====\n\n.. py:function:: tool.open()\n\n   Opens.\n"}
    result = compose_files(files, Settings(), public)
    home = " ".join(c.text for c in result.chunks if c.page == "index.rst")
    assert "Secret title" not in home and "/secret" not in home and "`tool.run()`" in home, home
    assert re.findall(r"\]\(([^)]*)\)", home) == ["/docs/public#tool.open"], home  # a public page's object: linked


def test_a_python_role_finds_its_object_in_the_current_module_and_class() -> None:
    """Sphinx's find_obj tries the name as written, in the current class, module, module and class:
    `:func:`run`` under `.. currentmodule:: tool` links `tool.run`; `:meth:`start`` inside the
    class `tool.App` links `tool.App.start`; a name nowhere described stays code; `.g` under a module
    is looked for in it, then alone (sphinx-build 9.0.4 links `globals.html#g` so)."""
    files = {"conf.py": "", "index.rst": "Home\n====\n\n.. currentmodule:: tool\n\n.. py:function:: run()\n\n   Runs.\n\n"
             ".. py:class:: App\n\n   .. py:method:: start()\n\n      Calls :meth:`start` and :func:`run`.\n\n"
             "See :func:`run`, :func:`tool.run` and :func:`missing`, and :data:`.g`.\n",
             "globals.rst": ":orphan:\n\nGlobals\n=======\n\n.. py:data:: g\n\n   A global of no module.\n"}
    linked = re.findall(r"\[`([^`]*)`\]\(([^)]*)\)", " ".join(c.text for c in compose_files(files, Settings()).chunks))
    assert sorted(set(linked)) == [("g", "/docs/globals#g"), ("run()", "/docs#tool.run"), ("start()", "/docs#tool.App.start"),
                                   ("tool.run()", "/docs#tool.run")], linked


def test_other_packages_directives_refuse_what_their_classes_refuse() -> None:
    """sphinx-design's, sphinx-tabs' directives with an option their class does not take, or no
    argument where one is required: Sphinx shows nothing of them (recorded: rst-design.shown.json);
    their specs are recorded from the real classes (sphinx_directive_specs.json). Before, they took
    any markup and 6 markers the build hides were indexed."""
    site = SITE.parent / "rst-design"
    recorded = json.loads((SITE.parent / "rst-design.shown.json").read_text())["pages"]["index.rst"]
    files = {path.relative_to(site).as_posix(): path.read_text() for path in site.rglob("*") if path.is_file()}
    indexed = " ".join(c.embed_text for c in compose_files(files, Settings()).chunks)
    assert len(recorded["hidden"]) >= 6 and len(recorded["shown"]) >= 10
    assert [m for m in recorded["shown"] if m not in indexed] == []
    assert [m for m in recorded["hidden"] if m in indexed] == []
