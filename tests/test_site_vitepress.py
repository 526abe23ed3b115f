"""A VitePress site (app/corpus/site_vitepress.py): the Markdown files its build leaves out
(`srcExclude`, a `.` folder) are not pages, and a page shows the files it includes
(`<!--@include: …-->`: relative or `@/`, a `#region`, a `{start,end}` range, nested, front matter
dropped, inside a code fence too; a page including itself is left as the comment).

tests/data/site-nav/vitepress is a small VitePress site; vitepress.shown.json is what its real build
shows of each file's markers (scripts/record_vitepress_site.py: vitepress 2.0.0-alpha.19, Chromium)."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus.compose import compose_corpus, compose_files
from app.corpus.markdown import read_page
from app.corpus.site import HIDDEN, NOT_BUILT, read_site
from app.corpus.site_vitepress import import_snippets, paste_includes
from app.corpus.sources import Source
from app.corpus.vitepress_config import read_config, rewritten
from tests.helpers import commit_all, git

SITE = Path(__file__).parent / "data" / "site-nav" / "vitepress"
CONFIG = ".vitepress/config.mts"


def _composed(tmp_path: Path, sample: str = "vitepress"):
    repo = tmp_path / "repo"
    shutil.copytree(SITE.parent / sample, repo)
    git(repo, "init", "-q", "-b", "main")
    commit_all(repo, "import")
    return compose_corpus(Source(name="s", repo=repo, dir="", audiences=("public",), url_prefix=""), Settings())


# Shown by the build, not indexed: values from the page's `<script setup>` (code the reader does not
# run: an expression it cannot evaluate shows nothing, vue-template.js).
LOST_ON_PURPOSE = {"marker-vue-setup-value", "marker-vue-if-setup-else"}
# Shown by the build, not indexed: a scoped rule's leading compounds without the page's scope
# attribute (`.a3 .b3` is `.a3 .b3[data-v-…]`) are taken to match the theme's elements around the
# page (reader.js withOutside: more hidden, never less), so every `.b3` of the page is hidden.
LOST_OUTSIDE = {"marker-psc-has-leading-outside", "marker-psc-has-without", "marker-psc-nested", "marker-psc-plain-outside"}


@pytest.mark.parametrize("sample", ["vitepress", "vitepress-src"])
def test_the_pages_and_what_they_show_are_the_builds(sample: str, tmp_path: Path) -> None:
    """The pages are those the build wrote for the root locale (`<html lang>`): the `zh/` locale's
    page is built, and left out, hidden (the root locale's search has none of it); with `srcDir`,
    a file outside it (the repository's README) is never built, `@/` includes name the srcDir. Each
    page's markers as the build shows them: `{{ }}`, `v-if`, `v-show`, `v-for`, bound `hidden` and
    `style`, `<template v-if>`, `v-pre`, `<Badge>`, `$frontmatter` as Vue renders them
    (guide/vue-template.md), `{…}` attributes (guide/attributes.md), the theme's stylesheets
    (guide/theme-css.md), a `<style scoped>` as Vue scopes it (`:deep()`, `:global()`,
    `:slotted()`, `>>>`, nesting; `v-html`'s content unscoped: probe/scoped.md)."""
    recorded = json.loads((SITE.parent / f"{sample}.shown.json").read_text())["pages"]
    result = _composed(tmp_path, sample)
    root = "en-US"
    assert sorted(page.path for page in result.pages) == sorted(
        name for name, p in recorded.items() if p["built"] and p["lang"] == root)
    excluded = dict(result.excluded)
    if sample == "vitepress":
        assert excluded["zh/index.md"].kind == HIDDEN
        assert excluded["dyn/[name].md"].kind == NOT_BUILT and "dynamic route" in excluded["dyn/[name].md"].reason
        assert "srcExclude" in excluded["AGENTS.md"].reason and "`.`" in excluded[".notes/hidden.md"].reason
        assert LOST_ON_PURPOSE <= set(recorded["guide/vue-template.md"]["shown"])
        assert LOST_OUTSIDE <= set(recorded["probe/scoped.md"]["shown"])
    else:
        assert "outside the srcDir 'src'" in excluded["README.md"].reason
    for page in result.pages:
        indexed = set(re.findall(r"marker-[a-z0-9-]+", " ".join(c.embed_text for c in result.chunks if c.page == page.path)))
        lost = [m for m in recorded[page.path]["shown"] if m not in indexed and m not in LOST_ON_PURPOSE | LOST_OUTSIDE]
        leaked = [m for m in recorded[page.path]["hidden"] if m in indexed]
        assert (lost, leaked) == ([], []), page.path
    assert dict(result.excluded)["AGENTS.md" if sample == "vitepress" else "README.md"].kind == NOT_BUILT
    assert result.warnings == []


@pytest.mark.parametrize("sample", ["vitepress", "vitepress-src"])
def test_each_page_is_where_the_build_publishes_and_places_it(sample: str, tmp_path: Path) -> None:
    """Its address is the one the build's own links give it (rewrites, srcDir; `.html` without
    cleanUrls; an index page at its folder), its place the sidebar groups its own sidebar shows it
    in (a page another sidebar lists too keeps its own; one whose front matter says `sidebar: false`
    or `layout: home` shows none: guide/no-sidebar.md, home.md), its title its `# heading` (the sidebar's
    and the page's; front matter `title: Links | Guide` is the browser tab's), and the sidebar's order."""
    recorded = json.loads((SITE.parent / f"{sample}.shown.json").read_text())["pages"]
    result = _composed(tmp_path, sample)
    address = {chunk.page: chunk.href.split("#")[0] for chunk in result.chunks}
    pages = {page.path: page for page in result.pages}
    for name, page in pages.items():
        built = recorded[name]
        assert address[name] == built["url"].rstrip("/") or address[name] == built["url"] == "/", name
        assert page.place == tuple(built.get("place", ())), name
        assert page.title == (built["h1"] or page.title), name
    if sample == "vitepress-src":
        assert pages["src/intro.md"].title == recorded["src/intro.md"]["h1"] != recorded["src/intro.md"]["title"]
        return
    assert pages["guide/links.md"].title == recorded["guide/links.md"]["h1"] != recorded["guide/links.md"]["title"]
    assert pages["guide/anchors.md"].place == ("Guide", "Deeper")  # also under "Elsewhere" in the `/` sidebar
    listed = sorted((page.page_order, name) for name, page in pages.items() if page.page_order is not None)
    assert [name for _, name in listed if name.startswith("guide/")] == [
        "guide/regions.md", "guide/boxes.md", "guide/snippets.md", "guide/no-sidebar.md", "guide/anchors.md",
        "guide/links.md"]  # as listed


def test_a_url_prefix_other_than_the_sites_base_is_warned() -> None:
    """vitest's site is at its domain's root (no `base`): with the default prefix `/docs`, every
    link would lead to `/docs/guide/…`, which the site does not serve."""
    files = {CONFIG: "export default { base: '/app/' }\n", "a.md": "# A\n\nx\n"}
    source = Source(name="s", repo=Path("."), dir="", audiences=("public",))
    assert any("base '/app'" in w for w in compose_files(files, Settings(), source).warnings)
    assert not compose_files(files, Settings(), replace(source, url_prefix="/app")).warnings
    files[CONFIG] = "export default { title: 'T' }\n"
    assert not compose_files(files, Settings(), replace(source, url_prefix="")).warnings


def test_a_sidebar_set_by_code_places_nothing_and_says_so() -> None:
    files = {CONFIG: "import { sidebar } from './sidebar'\nexport default defineConfig({ themeConfig: { sidebar } })\n",
             "a.md": "# A\n\nx\n"}
    result = compose_files(files, Settings())
    assert [(page.path, page.place) for page in result.pages] == [("a.md", ())]
    assert any("themeConfig.sidebar is set by code" in warning for warning in result.warnings)
    files[CONFIG] = "export default { themeConfig: { sidebar: [{ text: 'G', items: [...more, { link: '/a' }] }] } }\n"
    result = compose_files(files, Settings())
    assert [(page.path, page.place) for page in result.pages] == [("a.md", ("G",))]
    assert any(".vitepress/config.mts:1: a spread" in warning for warning in result.warnings), result.warnings


@pytest.mark.parametrize("rewrites, page, published", [
    ({"packages/:pkg/src/:slug*": ":pkg/:slug*"}, "packages/a/src/x/y.md", "a/x/y.md"),
    ({"packages/:pkg/src/(.*)": ":pkg/index.md"}, "packages/a/src/x.md", "a/index.md"),
    ({"Old.md": "new.md"}, "old.md", "new.md"),  # path-to-regexp matches without case
    ({"a/:x.md": ":x/index.md"}, "a/b/c.md", "a/b/c.md"),  # `:x` stops at a `/`
    ({"^a/(.*)": "b/:0"}, "a/x.md", "a/x.md"),  # a RegExp rewrite is not read (warned)
    ({"a.md": "b/"}, "a.md", "a.md"),  # not a page's path: not followed
])
def test_rewrites_publish_a_page_as_path_to_regexp_matches_it(rewrites: dict[str, str], page: str,
                                                              published: str) -> None:
    config = read_config("c", "export default " + json.dumps({"rewrites": rewrites}))
    assert rewritten(config.rewrites, page) == published


def test_an_include_naming_no_file_pastes_nothing_with_a_warning() -> None:
    warnings: list[str] = []
    text = paste_includes("guide/a.md", "before <!--@include: ./missing.md--> after <!--@include: ../../out.md-->",
                          {"guide/a.md": ""}, warnings)
    assert text == "before  after "
    assert len(warnings) == 2 and "missing.md" in warnings[0]


def test_includes_that_include_each_other_stop() -> None:
    files = {"a.md": "A <!--@include: ./b.md-->", "b.md": "B <!--@include: ./a.md-->"}
    assert paste_includes("a.md", files["a.md"], files, []) == "A B <!--@include: ./a.md-->"


def test_a_src_exclude_set_by_code_is_not_read() -> None:
    files = {CONFIG: "const skip = ['AGENTS.md']\nexport default { srcExclude: skip }\n", "AGENTS.md": "# A\n\nx\n"}
    site = read_site(files)
    assert site.framework == "vitepress" and site.exclusion("AGENTS.md", {}) is None
    assert any("srcExclude" in warning for warning in site.warnings)
    result = compose_files(files, Settings())
    assert [page.path for page in result.pages] == ["AGENTS.md"]


def test_a_section_links_to_the_id_vitepress_gives_its_heading(tmp_path: Path) -> None:
    """VitePress's slugify, not GitHub's: `coverage.provider` is `#coverage-provider` (vitest's docs:
    353 of 1,822 section links led to no id of the built page before)."""
    recorded = json.loads((SITE.parent / "vitepress.shown.json").read_text())["pages"]
    result = _composed(tmp_path)
    for name, page in recorded.items():
        if not page["built"]:
            continue
        linked = {chunk.href.partition("#")[2] for chunk in result.chunks if chunk.page == name} - {""}
        assert linked <= set(page["heading_ids"]), name
    anchors = [chunk.href.partition("#")[2] for chunk in result.chunks if chunk.page == "guide/anchors.md"]
    assert sorted(set(anchors) - {""}) == sorted(recorded["guide/anchors.md"]["heading_ids"][1:])


def _words(text: str) -> list[str]:
    """The text's words in order, without the Markdown a chunk writes (a heading's `#`, a list's
    `-`, a fence's backticks, `code`, **bold**, an escaped `\\:::`), nor the zero-width space of a
    heading's permalink."""
    text = re.sub(r"```\w*", " ", text.replace("\u200b", ""))
    return [word.strip("`*\\") for word in text.split() if word.strip("`*\\") not in ("", "#", "-", ">")]


def test_a_page_with_boxes_shows_what_the_build_shows(tmp_path: Path) -> None:
    """VitePress's containers (`::: tip` with or without a title, `:::info` without a space, nested,
    `details`, `raw`, `code-group` tabs), GitHub's alerts and Shiki's `// [!code …]` comments read
    as markdown-it renders them: the words indexed are the words the build shows, but each fence's
    language label (VitePress shows it over the code; not indexed)."""
    shown = json.loads((SITE.parent / "vitepress.shown.json").read_text())["texts"]["guide/boxes.md"]
    result = _composed(tmp_path)
    indexed = "\n".join(chunk.text for chunk in result.chunks if chunk.page == "guide/boxes.md")
    labels = ["js", "ts", "ts"]  # the three fences' `<span class="lang">`, after the code group's tabs
    shown_words = _words(shown)
    for label in labels:  # the last of each: a tab of the group is labelled `ts` too
        del shown_words[len(shown_words) - 1 - shown_words[::-1].index(label)]
    assert _words(indexed) == shown_words


def test_a_page_with_code_snippets_shows_what_the_build_shows(tmp_path: Path) -> None:
    """`<<< file` lines (VitePress's snippet rule): a `#region` (dedented, inner markers dropped),
    `@/` and relative paths, `{2 ts}` and `[title]`, an `ansi` file without its escape codes, in a
    code group (the tabs named by the files) and a quote; inside a fence or indented, as written."""
    shown = json.loads((SITE.parent / "vitepress.shown.json").read_text())["texts"]["guide/snippets.md"]
    result = _composed(tmp_path)
    indexed = "\n".join(chunk.text for chunk in result.chunks if chunk.page == "guide/snippets.md")
    shown_words = _words(shown)
    for label in ["ts", "ts", "json", "ts", "md"]:  # the fences' `<span class="lang">` (none for ansi)
        shown_words.remove(label)
    assert _words(indexed) == shown_words
    assert result.warnings == []


def test_a_code_snippet_never_reads_outside_the_repository() -> None:
    files = {CONFIG: "export default {}\n", "guide/x.ts": "x = 1\n",
             "guide/a.md": "# A\n\n<<< ./x.ts\n\n<<< ../../../etc/passwd\n\n<<< ./x.ts#nope\n"}
    result = compose_files(files, Settings())
    assert [chunk.text for chunk in result.chunks] == ["# A\n\n```ts\nx = 1\n```"]
    assert len([w for w in result.warnings if "names no file" in w]) == 2
    warnings: list[str] = []
    assert import_snippets("a.md", "<<< @/x.ts{1-2 py title=t} [T]", {"src/x.ts": "y"}.get, warnings,
                           "src/") == "```py {1-2} title=t [T]\ny\n```"


def test_an_absolute_or_escaping_path_reads_nothing() -> None:
    """`<<< /etc/passwd` is the machine's file in VitePress's build (path.resolve), never the
    repository's `etc/passwd`, nor any file outside the repository (`@/../..`, `../..`)."""
    lines = ["<<< /etc/passwd", "<!--@include: /etc/passwd-->", "<!--@include: @/../../etc/passwd-->",
             "<<< @/../../../etc/passwd", "<!--@include: ../../../../../../etc/passwd-->"]
    files = {CONFIG: "export default {}\n", "etc/passwd": "marker-in-repo\n", "guide/a.md": "# A\n\nText.\n\n" + "\n\n".join(lines)}
    result = compose_files(files, Settings())
    assert [chunk.text for chunk in result.chunks if chunk.page == "guide/a.md"] == ["# A\n\nText."]
    assert all(any(line in warning for warning in result.warnings) for line in lines)


@pytest.mark.parametrize("text, shown", [
    ("::: tip\nnever closed", ["TIP", "never closed"]),  # runs to the page's end, as markdown-it's
    ("".join(":" * (3 + i) + " warning\n" for i in range(60)) + "deep\n", ["WARNING"] * 60 + ["deep"]),
    ("::: details <script>x()</script><b>Shown</b>\nbody\n:::", ["Shown", "body"]),
    ("> > [!NOTE] Title\n> > body", ["Title", "> body"]),  # the outer quote's first line is the marker
])
def test_odd_boxes_read_as_markdown_it_reads_them(text: str, shown: list[str]) -> None:
    assert [block.text for block in read_page(text, mdx=False, vitepress=True).blocks] == shown


def test_a_folder_inside_a_vitepress_site_fails_naming_the_site_folder(tmp_path: Path) -> None:
    """DOCS_DIR=docs/guide of a site whose config is docs/.vitepress/config.mts: read alone, its
    pages would be plain Markdown (boxes as `:::` text, srcExclude'd files indexed)."""
    from app.corpus.git_source import GitSourceError

    repo = tmp_path / "repo"
    shutil.copytree(Path(__file__).parent / "data" / "site-root" / "vitepress", repo)
    git(repo, "init", "-q", "-b", "main")
    commit_all(repo, "import")
    with pytest.raises(GitSourceError, match=r"'docs/guide' is part of the site 'docs/\.vitepress/config\.mts' "
                                             r"builds: set the source's folder to 'docs'"):
        compose_corpus(Source(name="s", repo=repo, dir="docs/guide", audiences=("public",)), Settings())
    assert [p.path for p in compose_corpus(Source(name="s", repo=repo, dir="docs", audiences=("public",)),
                                           Settings()).pages] == ["guide/setup.md", "index.md"]


@pytest.mark.parametrize("text, shown", [
    # What the reader cannot evaluate (the page's script, the theme's globals) renders nothing: fail closed.
    ('<div v-if="ready">a</div>\n<div v-else>b</div>\n\nafter', ["after"]),
    ('<div v-if="false">a</div>\n<div v-else-if="x">b</div>\n<div v-else>c</div>\n\nafter', ["after"]),
    ('<p v-show="open">a</p>\n\n<p v-for="item in items">b</p>\n\nafter', ["after"]),
    ('<p :style="{display: shown}">a</p>\n\n<p :class="$style.box">b</p>\n\n<p v-bind="attrs">c</p>\n\nafter', ["after"]),
    ('<p :style="{color: tint}">colour</p>', ["colour"]),  # only a hiding property unread hides
    ("Value {{ data.version }} and {{ 'x' + 1 }} and {{ [1, 2] }}.", ["Value and x1 and [ 1, 2 ]."]),
    ("{{ unclosed and {{ }} and {{ 1 +", ["and {{ 1 +"]),  # the first `}}` closes; `{{ }}` shows nothing
    ('<div v-if="false" /> after a self-closed element', ["after a self-closed element"]),
    ('<template v-for="i in 3">\n\nlisted\n\n</template>', ["listed"]),
    ("::: v-pre\n{{ kept }}\n:::\n\n```js\n{{ code }}\n```", ["{{ kept }}", "```js\n{{ code }}\n```"]),
    # Session 36 (probe/vue2.md, probe/css.md): a dynamic argument may bind `hidden`; a DOM property
    # (`.textContent`, `:innerHTML.prop`) replaces the children, an attribute (`:textContent`) does not;
    # a textarea's model replaces what it holds; a Teleport to anything but `body` may find no target.
    ('<p :[name]="true">a</p>\n\nafter', ["after"]),
    ("<p .textContent=\"'b'\">a</p>\n\n<p :innerHTML.prop=\"'<i hidden>c</i>d'\">e</p>\n\n<p :textContent=\"'f'\">g</p>",
     ["b", "d", "g"]),
    ('<textarea v-model="x">a</textarea>\n\nafter', ["after"]),
    ('<Teleport to="#x">a</Teleport>\n\n<Teleport to="body">b</Teleport>\n\n<Teleport :to="w" :disabled="true">c</Teleport>',
     ["b c"]),
])
def test_vue_template_syntax_read_as_vue_renders_it(text: str, shown: list[str]) -> None:
    blocks = read_page(text, mdx=False, vitepress=True).blocks
    assert [block.text if block.kind == "code" else " ".join(block.text.split()) for block in blocks] == shown


def test_a_heading_with_a_badge_keeps_the_id_vitepress_gives_it() -> None:
    """VitePress slugs a heading's text tokens, not the text a component shows: `#userevent-click`."""
    blocks = read_page("## userEvent.click <Badge text=\"beta\" />", mdx=False, vitepress=True).blocks
    assert [block.text for block in blocks] == ["## userEvent.click beta {#userevent-click}"]


@pytest.mark.parametrize("module, shown", [
    (None, ["given"]),  # a file the source lacks: its children shown, as an unknown element's
    ("export default { render: () => null }", ["given"]),  # no template to read
    ('<template><slot :name="which" /></template>', ["given"]),  # a slot named by a value: unread
    ("<template><p>own text</p></template>", []),
    ('<template><slot name="default" /></template>', ["given"]),
])
def test_a_component_shows_the_children_its_slots_take(module: str | None, shown: list[str]) -> None:
    page = "<script setup>\nimport Box from './Box.vue'\n</script>\n\n<Box>given</Box>\n"
    def modules(sources: tuple[str, ...]) -> dict[str, str | None]:
        return {source: module if source == "./Box.vue" else None for source in sources}
    assert [block.text for block in read_page(page, mdx=False, vitepress=True, modules=modules).blocks] == shown


def test_a_template_shows_the_front_matter_it_names() -> None:
    """`$frontmatter` is the page's front matter (a date as its text); a key it lacks shows nothing."""
    text = "{{ $frontmatter.title }}, {{ $frontmatter['when'] }}, {{ $frontmatter.missing }}end, {{ $frontmatter.a.b }}"
    blocks = read_page(text, mdx=False, vitepress=True, page_data={"title": "Shown", "when": date(2024, 1, 2), "a": {"b": 1}}).blocks
    assert [block.text for block in blocks] == ["Shown, 2024-01-02, end, 1"]
