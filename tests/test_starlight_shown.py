"""What an Astro Starlight page shows, class by class (the tenth adversary, design/page-reader.md):
each case a small site composed by docschat, the words its real build shows and hides. The same
classes are recorded from the real build in tests/data/site-nav/starlight/src/content/docs/shown
(scripts/record_starlight_site.py; tests/test_site_starlight.py compares every page with it)."""

from __future__ import annotations

import pytest

from app.config import Settings
from app.corpus.compose import compose_files

CONFIG = "import starlight from '@astrojs/starlight'\nexport default { integrations: [starlight({ title: 'x' })] }\n"
PAGE = "src/content/docs/page.mdx"


def _indexed(page: str, files: dict[str, str] | None = None, path: str = PAGE) -> str:
    result = compose_files({"astro.config.mjs": CONFIG, path: page, **(files or {})}, Settings())
    return "\n".join(chunk.embed_text for chunk in result.chunks)


CASES = {
    # An own .astro component shows its children only in the slots its template renders.
    "astro slots": ("---\ntitle: T\n---\n\nimport Box from '../../components/Box.astro';\n\n"
                    "<Box>default-child<span slot=\"title\">title-child</span><span slot=\"other\">other-child</span></Box>\n",
                    {"src/components/Box.astro": "---\nconst { a } = Astro.props;\n---\n<div><!-- <slot /> --><slot name=\"title\" /></div>\n"},
                    ["title-child"], ["default-child", "other-child"]),
    # Slots rendered by code are not read: its children are shown (a guess, as an unknown component's).
    "astro slots by code": ("---\ntitle: T\n---\n\nimport Box from '../../components/Box.astro';\n\n<Box>given-child</Box>\n",
                            {"src/components/Box.astro": "---\nconst html = await Astro.slots.render('default');\n---\n"
                                                         "<div set:html={html} />\n"},
                            ["given-child"], []),
    # A `:::name` that is no aside: a div of its label and text (the name is not shown).
    "unknown directive": ("---\ntitle: T\n---\n\n:::secretname[label-text]\nbody-text\n:::\n", {}, ["label-text", "body-text"],
                          ["secretname"]),
    # Expressive Code: `frame="none"` shows no title; `<Code meta>` its title.
    "code frames": ("---\ntitle: T\n---\n\nimport { Code } from '@astrojs/starlight/components';\n\n"
                    "```sh frame=\"none\" title=\"fence-title\"\necho fence-body\n```\n\n"
                    "<Code code=\"x\" lang=\"js\" meta='title=\"meta-title.js\"' />\n\n"
                    "<Code code=\"y\" lang=\"js\" frame=\"none\" title=\"prop-title\" />\n",
                    {}, ["fence-body", "meta-title.js"], ["fence-title", "prop-title"]),
    # `import * as SL`: `<SL.Badge text>` is Starlight's Badge.
    "namespace import": ("---\ntitle: T\n---\n\nimport * as SL from '@astrojs/starlight/components';\n\n"
                         "<SL.Badge text=\"badge-text\" />\n", {}, ["badge-text"], []),
    # Starlight's `sl-hidden` and the config's customCss hide; `md:sl-hidden` hides on a desktop.
    "stylesheets": ("---\ntitle: T\n---\n\n<div class=\"sl-hidden\">sl-hidden-text</div>\n\n"
                    "<div class=\"md:sl-hidden\">md-hidden-text</div>\n\n<div class=\"max-md:sl-hidden\">shown-text</div>\n\n"
                    "<div class=\"site-secret\">custom-css-text</div>\n",
                    {"astro.config.mjs": CONFIG.replace("title: 'x'", "title: 'x', customCss: ['./src/custom.css']"),
                     "src/custom.css": ".site-secret { display: none }\n"},
                    ["shown-text"], ["sl-hidden-text", "md-hidden-text", "custom-css-text"]),
    # Badge, LinkCard and Icon render no slot: their children show nothing.
    "childless components": ("---\ntitle: T\n---\n\nimport { Badge, LinkCard, Card } from '@astrojs/starlight/components';\n\n"
                             "<Badge text=\"badge-text\">badge-child</Badge>\n\n<LinkCard title=\"card-title\" href=\"/\">link-child</LinkCard>\n\n"
                             "<Card title=\"t\">card-child</Card>\n", {}, ["badge-text", "card-title", "card-child"],
                             ["badge-child", "link-child"]),
    # Astro's `set:html` and `set:text`, read as the element's content.
    "set html": ("---\ntitle: T\n---\n\n<Fragment set:html=\"<b>html-text</b><span hidden>hidden-html</span>\" />\n\n"
                 "<p set:text=\"plain-text\" />\n\n<div hidden set:html=\"hidden-element\" />\n",
                 {}, ["html-text", "plain-text"], ["hidden-html", "hidden-element"]),
    # `{frontmatter.x}` shows the front matter's value.
    "frontmatter": ("---\ntitle: T\nextra: extra-value\n---\n\nSays {frontmatter.extra} and {frontmatter.missing}.\n", {},
                    ["extra-value"], []),
    # The banner and the hero (title, tagline, actions) are shown above the page's text.
    "hero": ("---\ntitle: T\nbanner:\n  content: <b>banner-text</b><!-- banner-comment -->\nhero:\n  title: hero-title\n"
             "  tagline: hero-tagline\n  actions:\n    - text: hero-action\n      link: /\n---\n\nbody-text\n", {},
             ["banner-text", "hero-title", "hero-tagline", "hero-action", "body-text"], ["banner-comment"]),
}


@pytest.mark.parametrize("case", CASES)
def test_a_starlight_page_shows_what_its_build_shows(case: str) -> None:
    page, files, shown, hidden = CASES[case]
    indexed = _indexed(page, files)
    assert [word for word in shown if word not in indexed] == []
    assert [word for word in hidden if word in indexed] == []


def test_a_written_heading_id_is_text_on_an_astro_markdown_page() -> None:
    """Astro's Markdown has no `{#id}`: shown, and slugged with the rest of the heading."""
    result = compose_files({"astro.config.mjs": CONFIG, "src/content/docs/page.md":
                            "---\ntitle: T\n---\n\n## Heading {#custom}\n\ntext\n"}, Settings())
    chunk = next(chunk for chunk in result.chunks if chunk.heading)
    assert chunk.href.endswith("#heading-custom") and "{#custom}" in chunk.heading


def test_a_heading_ids_leaves_out_a_components_attributes_as_astro_does() -> None:
    """`## A heading <Badge text="New" />` has the id `a-heading-` (the Badge's text no part of it)."""
    page = ("---\ntitle: T\n---\n\nimport { Badge } from '@astrojs/starlight/components';\n\n"
            "## A heading <Badge text=\"New\" />\n\ntext\n\n## Plain `code` heading\n\ntext\n")
    result = compose_files({"astro.config.mjs": CONFIG, PAGE: page}, Settings())
    assert [chunk.href.partition("#")[2] for chunk in result.chunks if chunk.heading] == ["a-heading-", "plain-code-heading"]
