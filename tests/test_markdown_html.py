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
