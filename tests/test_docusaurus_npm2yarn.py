"""@docusaurus/remark-plugin-npm2yarn as the real build shows it (tests/data/docusaurus-npm2yarn.shown.json,
recorded by scripts/record_docusaurus_npm2yarn_site.py with Docusaurus 3.10.2): a ```` ```bash
npm2yarn ```` fence is tabs of the npm command and its conversions by npm-to-yarn, labelled npm,
Yarn, pnpm, Bun (the plugin's defaults) or the converters a content plugin's options name. docschat
kept the npm command alone: the Yarn, pnpm and Bun commands a reader copies were not indexed."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import composed_page_lines

SITE = Path(__file__).parent / "data" / "docusaurus-npm2yarn"
RECORDED = json.loads((SITE.parent / "docusaurus-npm2yarn.shown.json").read_text(encoding="utf-8"))["pages"]
MANAGERS = ("npm", "npx", "yarn", "pnpm", "bun")


def _page_lines() -> dict[str, list[str]]:
    return composed_page_lines(SITE)


def test_npm2yarn_fences_show_each_command_and_tab_the_build_shows() -> None:
    indexed = _page_lines()
    assert set(indexed) == set(RECORDED)
    for page, shown in RECORDED.items():
        # Every command and tab label the page shows is indexed, as often as it shows it.
        wanted = [line for line in shown if line.split(" ")[0].lower() in MANAGERS or line in ("Yarn", "Bun")]
        missing = [line for line in wanted if indexed[page].count(line) < shown.count(line)]
        assert missing == [], (page, indexed[page])


def test_npm2yarn_conversions_are_only_those_the_build_shows() -> None:
    # No converted command the page does not show: the titled fence stays as written; src/pages'
    # plugin converts to pnpm only.
    for page, lines in _page_lines().items():
        commands = [line for line in lines if line.split(" ")[0] in ("yarn", "pnpm", "bun", "bunx")]
        assert [line for line in commands if line not in RECORDED[page]] == [], page
        assert len(commands) == sum(1 for line in RECORDED[page] if line.split(" ")[0] in ("yarn", "pnpm", "bun", "bunx"))


def _converters(config: str, page: str = "docs/a.md") -> tuple[str, ...] | None:
    from app.corpus.site_docusaurus import docusaurus_site

    admonitions = docusaurus_site({"docusaurus.config.js": config, "docs/a.md": "# A\n"}).admonitions_of(page)
    assert admonitions is not None
    return admonitions.npm2yarn


def test_the_plugin_is_told_by_its_package_however_the_config_names_it() -> None:
    preset = 'module.exports = {{presets: [["classic", {{docs: {{remarkPlugins: [{}]}}}}]]}}'
    imported = 'import n2y from "@docusaurus/remark-plugin-npm2yarn";\nexport default {presets: [["classic", {docs: {remarkPlugins: [n2y]}}]]}'
    assert _converters(imported) == ("yarn", "pnpm", "bun")
    assert _converters(preset.format('require("@docusaurus/remark-plugin-npm2yarn")')) == ("yarn", "pnpm", "bun")
    assert _converters(preset.format('[require("@docusaurus/remark-plugin-npm2yarn").default, {converters: ["pnpm"]}]')) == ("pnpm",)
    # A custom converter is a function docschat does not run; converters set by code: none.
    assert _converters(preset.format('[require("@docusaurus/remark-plugin-npm2yarn"), {converters: ["yarn", ["deno", (c) => c]]}]')) == ("yarn",)
    assert _converters(preset.format('[require("@docusaurus/remark-plugin-npm2yarn"), {converters: names()}]')) == ()
    # Another plugin, or none: no tabs.
    assert _converters(preset.format('require("remark-math")')) is None
    assert _converters(preset.format("")) is None
    # The docs' plugin options do not reach the blog's pages.
    assert _converters(preset.format('require("@docusaurus/remark-plugin-npm2yarn")'), "blog/post.md") is None
