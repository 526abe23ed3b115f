"""Raw HTML in a page as a browser reads it (parse5, in app/corpus/js/reader.js). The differential
probes cover what micromark can show; these cover what it cannot: GFM's tag filter escapes
`<script>`, so a script's end is judged against the HTML spec here. Each expected text is what
parse5 (the browser's tokenizer) shows of the same HTML."""

from __future__ import annotations

import pytest

from tests.helpers import shown_markdown


@pytest.mark.parametrize(("page", "shown"), [
    # `<!--` then `<script` in a script: the first `</script>` does not end it (double escaped).
    ("<script><!--<script></script>SECRET1</script>shown1\n", "shown1"),
    ("<script><!--<script></script>SECRET1<!--<script>x</script>SECRET2</script>shown1\n", "shown1"),
    # `<!--` alone escapes nothing, nor `<!-->`, nor a `-->` before the `</script>`.
    ("<script><!-- </script> shown1\n", "shown1"),
    ("<script><!---><script></script>shown1\n", "shown1"),
    ("<script><!--<script>--> </script> shown1\n", "shown1"),
    ("<script><!--<script></script>--> </script> shown1\n", "shown1"),
    # A template's content is HTML: a comment or an attribute holding `</template>` does not end it.
    ("<template>\n<!-- </template> -->\nSECRET1\n</template>\n\nshown1\n", "shown1"),
    ("a <template><b title=\"</template>\">SECRET1</b></template> shown1\n", "a  shown1"),
    ("<template><template></template>SECRET1</template>shown1\n", "shown1"),
    # A quote opens a value only after `=` (spaces around it allowed); in a name it is a name's.
    ("<div b\"c=\"d>SECRET1\" SECRET2>shown1\n</div>\n", "shown1"),
    ("<div title = \"x>SECRET1\" class=a>shown1\n</div>\n", "shown1"),
    ("<div title=x'y>shown1\n</div>\n\nshown2\n", "shown1\n\nshown2"),
])
def test_raw_html_hides_what_the_browser_hides(page: str, shown: str) -> None:
    assert shown_markdown(page, mdx=False).strip() == shown


@pytest.mark.parametrize("mdx", [False, True])
def test_svg_and_math_text_the_browser_does_not_render_is_hidden(mdx: bool) -> None:
    """An SVG's `<desc>` and `<metadata>` and a MathML `<annotation>` are never drawn: Chromium's
    innerText of this page is "shown1 zz3 𝑥 shown2" (a `<text>` is drawn), as a MyST `{raw} html`
    or an inline icon brings them in."""
    page = ("shown1\n\n<svg><desc>SECRET1</desc><metadata>SECRET2</metadata><text>zz3</text></svg>\n\n"
            "<math><semantics><mi>x</mi><annotation>SECRET3</annotation>"
            "<annotation-xml>SECRET4</annotation-xml></semantics></math>\n\nshown2\n")
    shown = shown_markdown(page, mdx=mdx)
    assert "zz3" in shown and "shown2" in shown
    assert "SECRET" not in shown, shown


def test_a_stylesheet_hides_by_attribute_pseudo_class_and_escape() -> None:
    """Chromium's innerText of this HTML is "zzLINK zzP zzKEPT": rules with an attribute selector,
    `:not()`, `:nth-child()` or an escaped class hide, as an escape in a style does; a
    pseudo-element's rule (`::after`) hides only what it generates. The `css-stylesheet-*` probes
    check combinators, pseudo-classes, attribute operators, lists and nesting against Chromium."""
    page = ('<div><style>a::after{display:none} p:after{display:none} [data-x]{display:none} '
            'p[title=x]{display:none} .a\\:b{display:none} li:not(.k){display:none} ol .n:nth-child(2n+1){display:none} '
            'div > [title="a b"]{display:none}</style>'
            '<p><a href="u">zzLINK</a></p><p>zzP</p><div data-x="1">SECRET1</div><p title="x">SECRET2</p>'
            '<p class="a:b">SECRET3</p><ul><li>SECRET4</li><li class="k">zzKEPT</li></ul>'
            '<div style="display:n\\one">SECRET5</div><ol><li class="k n">SECRET6</li></ol>'
            '<div><p title="a b">SECRET7</p></div></div>\n')
    shown = shown_markdown(page, mdx=False)
    assert "zzLINK" in shown and "zzP" in shown and "zzKEPT" in shown, shown
    assert "SECRET" not in shown, shown


def test_a_stylesheet_hides_mdx_elements_by_their_attributes() -> None:
    """MDX writes a lowercase element's attributes into the page as HTML does: a rule naming one
    (`[data-x]`, `p[title=x]`) hides it, as the stylesheet test above checks with Chromium."""
    page = ('<style>{`[data-x]{display:none} p[title=x]{display:none}`}</style>\n\n'
            '<div data-x="1">SECRET1</div>\n\n<p title="x">SECRET2</p>\n\n<p title="y">zzshown</p>\n')
    shown = shown_markdown(page, mdx=True)
    assert "zzshown" in shown and "SECRET" not in shown, shown


def test_a_paragraph_of_only_jsx_is_its_elements() -> None:
    """@mdx-js/mdx 3 unravels a paragraph holding nothing but JSX and expressions: its elements are
    blocks, with no paragraph around them that the browser would break into empty ones beside a
    `<div>` (which a stylesheet's `h3 + p` would then match). The probes' renderer shows each
    `<Badge>` here as its own block."""
    assert shown_markdown('<Badge>zz1</Badge>\n<Badge>zz2</Badge> {"zz3"}\n', mdx=True) == "zz1\n\nzz2\n\nzz3\n"
    assert shown_markdown("<Badge>zz1</Badge> and zz2\n", mdx=True) == "zz1 and zz2\n"


def test_a_stylesheet_reads_what_hast_util_select_cannot() -> None:
    """Chromium's innerText of the first page is "zzC zzQ zzK", of the second "zzV".
    hast-util-select matches `:is()` and `:not()` within the element and what it holds, so a
    combinator there never matches: `:is(.a .b)` is read as `.b` and `:not(.a .q)` as matching
    every `.q` (zzQ is lost: more hidden, never less). A nested rule is its parent's selector
    written out (`.n .m .k`). A rule hiding the page's body hides the page as an element's would.
    zzC and zzK, shown on the bare page, are hidden too: on a site the theme's elements around the
    page may be the `.a`/`.n` of a rule (`withOutside` matches its tails `.c`, `.m .k`)."""
    page = ('<div><style>:is(.a .b) .c{display:none} .q:not(.a .q){display:none} .n .m { .k {display:none} }</style>'
            '<div class="a"><div class="b"><p class="c">SECRET1</p></div></div><p class="c">zzC</p>'
            '<div class="a"><p class="q">zzQ</p></div><p class="q">SECRET2</p>'
            '<div class="n"><div class="m"><p class="k">SECRET3</p></div></div><div class="m"><p class="k">zzK</p></div></div>\n')
    assert shown_markdown(page, mdx=False) == ""
    page = '<style>body{visibility:hidden}</style><p>SECRET4</p><p style="visibility:visible">zzV</p>\n'
    assert shown_markdown(page, mdx=False) == "zzV\n"


def test_a_selector_past_the_matching_budget_matches_more() -> None:
    """`.x .x .x .x` over 300 nested `.x` ran V8 out of memory in hast-util-select (a copy of the
    waiting rule per matching ancestor); past the budget its leading compounds are dropped."""
    page = "<style>.x .x .x .x {display:none}</style>\n\n" + '<div class="x">' * 300 + "SECRET" + "</div>" * 300 + "\n\nzzP\n"
    assert shown_markdown(page, mdx=False) == "zzP\n"
    # `:not()` walks what each element holds (10 s here): on a page this deep it is dropped.
    page = "<style>.x:not(.y) {display:none} .x:not(:has(.x:not(:has(.y)))) {display:none}</style>\n\n"
    assert shown_markdown(page + '<div class="x">' * 300 + "SECRET" + "</div>" * 300 + "\n\nzzP\n", mdx=False) == "zzP\n"


@pytest.mark.parametrize(("myst", "fence"), [
    (False, "```{}\ncode\n```\n"), (True, "```{}\ncode\n```\n"), (True, "```{{code-block}} {}\ncode\n```\n"),
])
@pytest.mark.parametrize(("language", "written"), [
    ("c++", "c++"), ("x" * 40, "x" * 40), ("x" * 41, ""), ("café", ""), ('a"b', ""), ("a<b>", ""),
])
def test_a_code_block_keeps_only_a_plain_language(myst: bool, fence: str, language: str, written: str) -> None:
    """One rule for every dialect (reader.js `blocks`, on the `<pre><code class="language-…">`
    micromark or the MyST renderer writes): a language of at most 40 ASCII word characters and
    `.+#-` is kept on the fence, any other is left out."""
    assert shown_markdown(fence.format(language), mdx=False, myst=myst) == f"```{written}\ncode\n```\n"


@pytest.mark.parametrize("mdx", [False, True])
def test_a_select_shows_its_options_as_words_apart(mdx: bool) -> None:
    """Chromium's innerText puts each option of a `<select>` on its own line ("x \\nA\\nB\\nC\\n y", an
    option group's too, its label not); glued, "WORDAWORDB" found neither word."""
    page = 'x <select><option>WORDA</option><option>WORDB</option><optgroup label="G"><option>WORDC</option></optgroup></select> y\n'
    assert shown_markdown(page, mdx=mdx).split() == ["x", "WORDA", "WORDB", "WORDC", "y"]


@pytest.mark.parametrize("mdx", [False, True])
def test_mathml_tokens_are_words_apart(mdx: bool) -> None:
    """Chromium's innerText puts each MathML token on its own line ("a \\nWORDA\\nWORDB\\n𝑥\\n=\\n1"):
    glued, "WORDAWORDB" found neither word."""
    page = "a <math><mtext>WORDA</mtext><semantics><mi>WORDB</mi><annotation>SECRET</annotation></semantics>" \
           "<mi>x</mi><mo>=</mo><mn>1</mn></math>, then\n"
    assert shown_markdown(page, mdx=mdx).split() == ["a", "WORDA", "WORDB", "x", "=", "1,", "then"]
