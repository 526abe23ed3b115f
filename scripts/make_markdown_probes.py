"""Writes the differential probes under tests/data/markdown-probes/: every hiding construct in
every context, with backticks in its neighbours. Markers are words `zz…` (named s… when the author
expects them shown, h… hidden; only the renderer's record, scripts/record_probes.mjs, counts).

    python scripts/make_markdown_probes.py && node scripts/record_probes.mjs
"""

from __future__ import annotations

from pathlib import Path

FOLDER = Path(__file__).resolve().parent.parent / "tests" / "data" / "markdown-probes"

# Inline constructs: `{n}` numbers the markers of one use.
MD_INLINE = {
    "comment": "say zzs{n}a <!-- zzh{n}a --> zzs{n}b",
    "comment-backtick-before": "Use `sync` zzs{n}a. <!-- not `--force --> then `serve` <!-- zzh{n}a --> on `8000` zzs{n}b",
    "comment-in-code": "code `<!-- zzs{n}a` then zzs{n}b --> zzs{n}c",
    "escaped-comment": "\\<!-- zzs{n}a --> zzs{n}b",
    "script": "run <script>zzh{n}a</script> zzs{n}a",
    "style": "look <style>.zzh{n}a{{}}</style> zzs{n}a",
    "link-backtick": "[zzs{n}a](/a`b) <!-- zzh{n}a --> `x` zzs{n}b",
    "link-title-backtick": "[zzs{n}a](/a \"t`\") <!-- zzh{n}a --> `y` zzs{n}b",
    "autolink-backtick": "<https://x.example/`a> <!-- zzh{n}a --> `q` zzs{n}a",
    "tag-attribute": "<span title=\"`\">zzs{n}a</span> <!-- zzh{n}a --> `z` zzs{n}b",
    "double-backticks": "``a ` <!-- b`` zzs{n}a --> <!-- zzh{n}a --> zzs{n}b",
    "unclosed-span": "a ` b <!-- zzh{n}a --> c zzs{n}a",
    "empty-comments": "<!--> zzs{n}a <!---> zzs{n}b <!-- zzh{n}a -->",
    # Comments as the HTML spec reads them: `--!>` closes one (CommonMark ends it at `-->` only),
    # `>`, `->`, `--` and `<!--` inside do not, `<!-->` and `<!--->` are empty ones.
    "comment-bang-close": "say zzs{n}a <!-- zzh{n}a --!> zzs{n}b --> zzs{n}c",
    "comment-bang-no-close": "say zzs{n}a <!-- zzs{n}b --!> zzs{n}c",
    "comment-bang-backtick": "Use `sync` zzs{n}a. <!-- not `--force --!> then `serve` zzs{n}b <!-- zzh{n}a --> on `8000` zzs{n}c",
    "comment-nested-markers": "say zzs{n}a <!-- zzh{n}a > zzh{n}b -> zzh{n}c <!-- zzh{n}d --> zzs{n}b",
    "comment-double-dash": "say zzs{n}a <!-- zzh{n}a -- zzh{n}b --!-> zzh{n}c --> zzs{n}b",
    "empty-comments-middle": "say zzs{n}a <!--> zzs{n}b <!---> zzs{n}c <!----> zzs{n}d <!-- zzh{n}a --> zzs{n}e",
    "empty-comment-backtick": "Use `a` zzs{n}a <!--> `b <!-- zzs{n}b --> c` zzs{n}c <!---> `d` <!-- zzh{n}a --> zzs{n}d",
}
# Contexts for an inline construct `{x}`.
MD_CONTEXTS = {
    "paragraph": "Text before.\n\n{x}\n\nText after zzsafter.\n",
    "list": "- item one\n- {x}\n  - nested {x2}\n\nText after zzsafter.\n",
    "ordered": "1. first\n2. {x}\n\nText after zzsafter.\n",
    "blockquote": "> quoted\n> {x}\n>\n> > {x2}\n\nText after zzsafter.\n",
    "table": "| a | b |\n|---|---|\n| {x} | cell |\n\nText after zzsafter.\n",
    "heading": "## {x}\n\nText after zzsafter.\n",
    "footnote": "See[^n] here.\n\n[^n]: {x}\n\nText after zzsafter.\n",
    "lazy": "- item\nlazy {x}\n\nText after zzsafter.\n",
}
MD_BLOCKS = {
    "comment-block-fence": "Intro zzs1.\n\n<!--\n```\nzzh1\n```\nzzh2\n-->\n\nAfter zzs2.\n",
    "comment-block-unclosed": "Intro zzs1.\n\n<!-- open\n\nzzh1 paragraph\n",
    "comment-left-open-by-html-block": "Intro zzs1.\n\n<div>\n<!-- open\n\nzzh1 paragraph `x`\n\n## Head zzh2\n",
    "comment-after-close": "<!-- a --> zzs0 <!-- b\nzzh1\n-->\n\nAfter zzs1.\n",
    "script-block": "<script>\nzzh1\n\nzzh2\n</script>\n\nAfter zzs1.\n",
    "script-unclosed": "Intro zzs1.\n\n<script>\nzzh1\n\nzzh2\n",
    "style-in-div": "<div>\n<style>\n.zzh1 {}\n</style>\nzzs1\n</div>\n\nAfter zzs2.\n",
    "div-text": "<div align=\"center\">\nzzs1 <b>zzs2</b>\n</div>\n\nAfter zzs3.\n",
    "pre-block": "<pre>\nzzs1 <!-- zzh1 -->\n</pre>\n\nAfter zzs2.\n",
    "textarea": "<textarea>\nzzs1\n</textarea>\n\nAfter zzs2.\n",
    "fence-info": "```python zzh1 title=\"zzh2\"\nprint('zzs1')\n```\n\nAfter zzs2.\n",
    "fence-info-tilde": "~~~ js zzh1 `zzh2`\nzzs1\n~~~\n",
    "fence-holds-comment": "```\n<!-- zzs1 -->\n```\n\n<!-- zzh1 -->\nAfter zzs2.\n",
    "indented-code-comment": "Para zzs0.\n\n    <!-- zzs1 -->\n    zzs2\n\n<!-- zzh1 -->\n",
    "table-extra-cells": "| zzs1 | zzs2 |\n|---|---|\n| zzs3 | zzs4 | zzh1 |\n| zzs5 | zzs6 | zzh2 | zzh3 |\n",
    "table-escaped-pipe": "| zzs1 | b |\n|---|---|\n| `a \\| zzs2` | zzs3 \\| zzs4 |\n",
    "table-comment": "| a | b |\n|---|---|\n| zzs1 <!-- zzh1 --> | zzs2 |\n",
    "heading-comment": "# Title zzs1 <!-- zzh1 -->\n\n## Sub <!-- zzh2 --> zzs2\n\nText zzs3.\n",
    "setext-comment": "Title zzs1 <!-- zzh1 -->\n===\n\nText zzs2.\n",
    "html-comment-in-list-block": "- item zzs1\n\n  <!--\n  zzh1\n  -->\n\n  more zzs2\n- next zzs3\n",
    "comment-spans-items": "- a <!-- zzh0 --> zzs1\n- <!--\nzzh1\n- zzh2\n-->\n- zzs2\n",
    "footnote-comment-block": "Text[^a] zzs1.\n\n[^a]: note zzs2\n\n    <!-- zzh1 -->\n    zzs3\n",
    "link-reference-def": "[zzs1][r]\n\n[r]: /url \"zzh1\"\n",
    "image-alt": "![zzs1 alt](/x.png) zzs2\n",
    "html-inline-unclosed-comment": "a <!-- zzs1\n\nzzs2 -->\n",
    "nested-quote-list": "> - item <!-- zzh1 --> zzs1\n>   > deep `x` <!-- zzh2 --> zzs2\n",
    "deep-nesting": "> " * 40 + "zzs1 <!-- zzh1 -->\n",
    "cdata-and-pi": "<![CDATA[ zzh1 ]]>\n\n<?php zzh2 ?>\n\nAfter zzs1.\n",
    "backslash-backtick": "\\`a <!-- zzh1 --> b` zzs1\n",
    "comment-block-bang-close": "Intro zzs1.\n\n<!-- zzh1\nzzh2 --!> zzs2\n\nAfter zzs3 `x`.\n\n<!-- zzh3 -->\n",
    "comment-block-bang-no-close": "<!-- zzh1 --!> zzs1\n\n# Head zzs2\n\nText zzs3 `x`\n",
    "comment-block-nested-markers": "Intro zzs1.\n\n<!-- zzh1 <!-- zzh2\n-> zzh3 > zzh4 -- zzh5\n-->\nAfter zzs2.\n",
    "comment-block-empty": "<!-->\nzzs1\n\n<!--->\nzzs2\n\n<!---->\nzzs3\n\n<!-- zzh1 -->\n",
    "comment-block-empty-then-open": "<!--> zzs1 <!-- zzh1\nzzh2 -->\nAfter zzh3.\n",
    "comment-bang-in-div": "<div>\nzzs1 <!-- zzh1 --!> zzs2 <!--> zzs3 <!-- zzh2 -> > -->\n</div>\n\nAfter zzs4.\n",
    # A template's content is parsed as HTML (comments, attributes, nested templates), never shown.
    "template-comment-close": "<template>\n<!-- </template> -->\nzzh1\n</template>\n\nAfter zzs1.\n",
    "template-attr-close": "a <template><b title=\"</template>\">zzh1</b></template> zzs1 `x`\n",
    "template-nested": "<template><template></template>zzh1</template>zzs1\n\nAfter zzs2.\n",
    # A quote opens an attribute's value only after `=`: in a name, or an unquoted value, it is text.
    "attribute-quote-in-name": "<div b\"c=\"d>zzh1\" zzh2>zzs1\n</div>\n\nAfter zzs2.\n",
    "attribute-quote-in-unquoted-value": "<div title=x'y>zzs1\n</div>\n\nAfter zzs2.\n",
}

MDX_INLINE = {
    "mdx-comment": "say zzs{n}a {{/* zzh{n}a */}} zzs{n}b",
    "mdx-comment-backtick": "Use `a` {{/* not ` here */}} then {{false && 'zzh{n}a'}} `b` zzs{n}a",
    "string-expression": "a {{'zzs{n}a'}} b {{\"zzs{n}b\"}}",
    "false-expression": "a {{false && 'zzh{n}a'}} zzs{n}a",
    "template": "a {{`zzs{n}a`}} zzs{n}b",
    "expression-brace-in-string": "a {{'}}' && null}} {{false && 'zzh{n}a'}} zzs{n}a",
    "code-holds-brace": "`{{zzs{n}a}}` and {{/* zzh{n}a */}} zzs{n}b",
    "jsx-attribute-backtick": "<Badge title=\"a`b\">zzs{n}a</Badge> {{/* zzh{n}a */}} `c` zzs{n}b",
    "jsx-inline": "<Tooltip tip=\"zzh{n}a\">zzs{n}a</Tooltip> zzs{n}b",
    "link-backtick": "[zzs{n}a](/a`b) {{/* zzh{n}a */}} `x` zzs{n}b",
    # MDX refuses an HTML comment; its markers in code, strings and JS comments are no comment.
    "comment-markers-in-code": "`<!--` zzs{n}a `--!>` {{/* zzh{n}a --!> <!-- */}} `<!-->` zzs{n}b",
    "comment-markers-in-string": "a {{'<!-- zzs{n}a --!>'}} {{false && '<!--> zzh{n}a'}} zzs{n}b {{\"<!---> zzs{n}c\"}}",
}
MDX_CONTEXTS = {
    "paragraph": "Text before.\n\n{x}\n\nText after zzsafter.\n",
    "list": "- item one\n- {x}\n\nText after zzsafter.\n",
    "blockquote": "> quoted\n> {x}\n\nText after zzsafter.\n",
    "table": "| a | b |\n|---|---|\n| {x} | cell |\n\nText after zzsafter.\n",
    "heading": "## {x}\n\nText after zzsafter.\n",
    "component": "<Note>\n  {x}\n</Note>\n\nText after zzsafter.\n",
}
MDX_BLOCKS = {
    "mdx-export": "export const meta = {{ secret: 'zzh1' }}\n\nText zzs1.\n",
    "mdx-export-multiline": "export const a = {{\n  b: 'zzh1',\n\n  c: 2,\n}}\n\nText zzs1.\n",
    "mdx-flow-comment": "{{/*\nzzh1\n\n```\nzzh2\n```\n*/}}\n\nText zzs1.\n",
    "mdx-component-title": "<Card title=\"zzs1\" href=\"/zzh1\">\n  zzs2\n</Card>\n",
    "mdx-fence-info": "```python zzh1\nprint('zzs1')\n```\n",
    "mdx-table-extra": "| zzs1 | zzs2 |\n|---|---|\n| zzs3 | zzs4 | zzh1 |\n",
    "mdx-indented-not-code": "<Steps>\n    <Step title=\"zzs1\">\n        Run zzs2 {{/* zzh1 */}}\n    </Step>\n</Steps>\n",
    "mdx-expression-jsx": "{{false && <Note>zzh1</Note>}}\n\nText zzs1.\n",
    "mdx-expression-object": "<Frame style={{{{ color: 'zzh1' }}}}>zzs1</Frame>\n",
    "mdx-code-fence-braces": "```js\nconst a = {{ zzs1: 1 }} /* zzs2 */\n```\n",
    "mdx-math-like": "Price $5 {{/* zzh1 */}} and $10 zzs1\n",
}


def _fill(template: str, n: int) -> str:
    return template.format(n=n)


def main() -> None:
    for old in FOLDER.glob("*.md*"):
        old.unlink()
    FOLDER.mkdir(parents=True, exist_ok=True)
    for ext, inline, contexts, blocks in ((".md", MD_INLINE, MD_CONTEXTS, MD_BLOCKS),
                                          (".mdx", MDX_INLINE, MDX_CONTEXTS, MDX_BLOCKS)):
        for construct, template in inline.items():
            for context, page in contexts.items():
                text = page.replace("{x2}", _fill(template, 2)).replace("{x}", _fill(template, 1))
                (FOLDER / f"{construct}--{context}{ext}").write_text(text)
        for name, text in blocks.items():
            (FOLDER / f"{name}{ext}").write_text(text.format() if ext == ".mdx" else text)
    print(len(list(FOLDER.glob("*.md*"))), "probes written")


if __name__ == "__main__":
    main()
