"""Mintlify API pages generated from OpenAPI specs (app/corpus/site_openapi.py, js/src/openapi.js):
tests/data/site-nav/mintlify's docs.json has a tab whose `openapi` source is api/openapi.yaml, a
page naming an operation in its front matter, a navigation entry `POST /widgets`, and a group that
generates a page for every operation. Which pages are generated is compared with what Mintlify's
own generator makes of the spec (tests/data/site-nav/mintlify-openapi.scraped.json, recorded with
@mintlify/scraping); what each shows cannot be (Mintlify's hosted client renders it), so the
fields are checked as the spec writes them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.config import Settings
from app.corpus import site_openapi
from app.corpus.compose import ComposeResult, compose_files
from app.corpus.site_model import HIDDEN
from app.corpus.sources import Source

SITE = Path(__file__).parent / "data" / "site-nav" / "mintlify"
SCRAPED = json.loads((SITE.parent / "mintlify-openapi.scraped.json").read_text())
SPEC = (SITE / "api" / "openapi.yaml").read_text()


def _site_files() -> dict[str, str]:
    return {p.relative_to(SITE).as_posix(): p.read_text() for p in SITE.rglob("*") if p.is_file()}


def _compose(files: dict[str, str], audiences: tuple[str, ...] = ("public",)) -> ComposeResult:
    return compose_files(files, Settings(), Source(name="s", repo=Path("."), dir="", audiences=audiences))


def _text(result: ComposeResult, page: str) -> str:
    return "\n".join(chunk.text for chunk in result.chunks if chunk.page == page)


@pytest.fixture(scope="module")
def site() -> ComposeResult:
    return _compose(_site_files())


def test_the_pages_a_spec_generates_are_those_mintlifys_generator_makes(site: ComposeResult) -> None:
    """A group with an `openapi` source and no pages: a page per operation, at the path and in the
    group by tag @mintlify/scraping writes; its `x-hidden` operation a page left out of the
    navigation (not indexed, as any hidden page); its `x-excluded` one no page at all."""
    [group] = SCRAPED["navigation"]
    generated = {p.path: p for p in site.pages if p.path.startswith("generated/")}
    assert list(generated) == [f"{page}.mdx" for page in group["pages"]]
    assert {p.place for p in generated.values()} == {("API reference", "Everything", group["group"])}
    hidden = set(SCRAPED["files"]) - set(generated)
    assert hidden == {"generated/widgets/delete-a-widget.mdx"}
    assert [(path, why.kind) for path, why in site.excluded if path in hidden] == [(next(iter(hidden)), HIDDEN)]
    assert not [p for p in site.pages if "reindex" in p.path]
    indexed = " ".join(chunk.text for chunk in site.chunks)
    assert "marker-openapi-hidden-operation-left-out" not in indexed
    assert "marker-openapi-excluded-operation-left-out" not in indexed
    assert [p.title for p in generated.values()] == ["List widgets", "Create a widget", "Get a widget"]


def test_an_api_page_holds_its_parameters_with_type_default_required_and_options(site: ComposeResult) -> None:
    text = _text(site, "generated/widgets/list-widgets.mdx")
    assert "GET /widgets" in text
    assert "Lists the widgets of a workspace, newest first (marker-openapi-list-description-shown)." in text
    assert "## Query Parameters" in text
    assert "limit integer default: 20\n\nHow many widgets to return at most (marker-openapi-limit-shown)." in text
    assert "Required range: 1 <= x <= 100" in text
    assert "colour enum<string> required\n\nAvailable options: red, green, blue" in text
    assert "tags enum<string>[]\n\nOnly widgets with all of these tags.\n\nAvailable options: new, sale" in text
    assert "## Authorizations\n\nAuthorization string header required" in text
    # Its response: an array of the $ref'd Widget, each item's fields under it.
    assert "## Response 200" in text and "data object[]" in text
    assert "id string\n\nIts ID (marker-openapi-response-id-shown)." in text
    assert "created_at string<date-time>" in text and "marker-openapi-cursor-shown" in text
    # A field of several types: each option carries its description, shown once.
    assert "archived_at string | null\n\nWhen it was archived, if it was (marker-openapi-nullable-shown)." in text
    assert text.count("marker-openapi-nullable-shown") == 1


def test_body_fields_nest_and_fields_marked_hidden_are_left_out(site: ComposeResult) -> None:
    text = _text(site, "generated/widgets/create-a-widget.mdx")
    assert "## Body\n\napplication/json" in text
    assert "name string required\n\nThe widget's display name (marker-openapi-name-shown).\n\nMaximum string length: 80" in text
    assert "size enum<string> default: medium\n\nAvailable options: small, medium, large" in text
    assert "dimensions object\n\nOuter dimensions.\n\nwidth_mm number\n\nWidth in millimetres" in text
    assert "parent object" in text  # a schema holding itself ends where it recurs
    assert text.count("name string required") == 1
    indexed = " ".join(chunk.text for chunk in site.chunks)
    for marker in ("marker-openapi-hidden-field-left-out", "marker-openapi-excluded-field-left-out",
                   "marker-openapi-hidden-header-left-out"):
        assert marker not in indexed
    assert "cost_price" not in indexed and "internal_score" not in indexed and "X-Debug-Token" not in indexed


def test_a_page_naming_an_operation_shows_its_text_then_the_operation(site: ComposeResult) -> None:
    page = next(p for p in site.pages if p.path == "reference/get-widget.mdx")
    assert page.title == "Fetch one widget" and page.place == ("API reference", "Endpoints")
    text = _text(site, page.path)
    assert text.index("marker-openapi-page-text-shown") < text.index("GET /widgets/{widget_id}")
    assert "## Path Parameters\n\nwidget_id string required\n\nThe widget's ID (marker-openapi-widget-id-shown)." in text
    # A navigation entry naming an operation is read against the tab's `openapi` source.
    entry = next(p for p in site.pages if p.path == "api-reference/widgets/create-a-widget.mdx")
    assert entry.title == "Create a widget" and "marker-openapi-width-shown" in _text(site, entry.path)
    assert not [w for w in site.warnings if "openapi" in w.lower()], site.warnings


def test_a_generated_page_keeps_its_sources_audience() -> None:
    """A page generated from a spec has no front matter to declare who may see it: it has the
    source's default, and a source defaulting to internal keeps it internal."""
    result = _compose(_site_files(), audiences=("internal",))
    generated = [c for c in result.chunks if c.page.startswith("generated/")]
    assert generated and all(c.audiences == ("internal",) for c in generated)


def _api_site(spec_name: str, spec: str | None, **extra: str) -> dict[str, str]:
    docs = {"navigation": {"groups": [{"group": "Guide", "pages": ["intro"]},
                                      {"group": "API", "openapi": spec_name}]}}
    files = {"docs.json": json.dumps(docs), "intro.mdx": "# Intro\n\nHello.\n", **extra}
    if spec is not None:
        files[spec_name] = spec
    return files


@pytest.mark.parametrize(("name", "spec", "why"), [
    ("missing.yaml", None, "docs.json: the pages generated from missing.yaml are not indexed: missing.yaml: not in "
                           "the source"),
    ("bad.yaml", "openapi: 3.1.0\npaths: [unclosed\n", "bad.yaml: "),
    ("swagger.json", json.dumps({"swagger": "2.0", "paths": {"/a": {"get": {"summary": "A"}}}}),
     "swagger.json: not an OpenAPI 3 document (Mintlify reads OpenAPI 3.0 and 3.1 only)"),
    ("list.yaml", "- 1\n- 2\n", "list.yaml: not a JSON or YAML object"),
    ("https://example.com/openapi.json", None, "https://example.com/openapi.json: a URL; docschat downloads nothing"),
])
def test_a_spec_that_cannot_be_read_is_a_warning_naming_it(name: str, spec: str | None, why: str) -> None:
    result = _compose(_api_site(name, spec))
    assert [p.path for p in result.pages] == ["intro.mdx"]
    assert [w for w in result.warnings if why in w], result.warnings
    assert len([w for w in result.warnings if "OpenAPI" in w or "generated from" in w]) == 1, result.warnings


def test_a_ref_loop_an_alias_bomb_and_a_huge_spec_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    loop = ("openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n      summary: A\n"
            "      responses:\n        '200':\n          description: ok\n          content:\n"
            "            application/json:\n              schema: {$ref: '#/components/schemas/A'}\n"
            "components:\n  schemas:\n    A: {$ref: '#/components/schemas/B'}\n    B: {$ref: '#/components/schemas/A'}\n")
    result = _compose(_api_site("loop.yaml", loop))
    assert {p.path for p in result.pages} == {"intro.mdx", "api-reference/a.mdx"}  # the loop names nothing: no field
    dangling = loop.replace("#/components/schemas/B'}\n    B", "#/components/schemas/C'}\n    B")
    result = _compose(_api_site("dangling.yaml", dangling))
    assert [w for w in result.warnings if w.startswith("dangling.yaml: 1 $ref(s) of this OpenAPI spec resolve to nothing")]
    bomb = "openapi: 3.0.0\na: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8))
    result = _compose(_api_site("bomb.yaml", bomb))
    assert [p.path for p in result.pages] == ["intro.mdx"]
    assert [w for w in result.warnings if "bomb.yaml" in w], result.warnings
    monkeypatch.setattr(site_openapi, "MAX_SPEC_PAGES", 2)
    result = _compose(_api_site("many.yaml", SPEC))
    assert [p.path for p in result.pages] == ["intro.mdx", "api-reference/widgets/list-widgets.mdx",
                                              "api-reference/widgets/create-a-widget.mdx"]
    assert "many.yaml: 4 operations; the first 2 are indexed" in result.warnings
    monkeypatch.setattr(site_openapi, "MAX_SPEC_CHARS", 1000)
    result = _compose(_api_site("big.yaml", SPEC))
    assert [p.path for p in result.pages] == ["intro.mdx"]
    assert [w for w in result.warnings if "big.yaml: larger than" in w], result.warnings


def test_an_operation_no_spec_holds_is_named_not_lost_silently() -> None:
    docs = {"navigation": {"groups": [{"group": "API", "openapi": "openapi.yaml", "pages": [
        "intro", "GET /widgets", "GET /nowhere", "endpoint/get"]}]}}
    files = {"docs.json": json.dumps(docs), "openapi.yaml": SPEC, "intro.mdx": "# Intro\n",
             "endpoint/get.mdx": '---\ntitle: "Get user"\nopenapi: "other.json GET /users/{id}"\n---\nText.\n'}
    result = _compose(files)
    assert sorted(p.path for p in result.pages) == ["api-reference/widgets/list-widgets.mdx", "endpoint/get.mdx",
                                                   "intro.mdx"]
    assert ("docs.json: 1 OpenAPI page(s) of its navigation (GET /nowhere) are not indexed: no operation GET "
            "/nowhere in openapi.yaml (or it is x-excluded)") in result.warnings
    assert ("endpoint/get.mdx: generated from the OpenAPI operation other.json GET /users/{id}, which is not read "
            "(other.json: not in the source): only what the page writes is indexed") in result.warnings
    assert _text(result, "endpoint/get.mdx") == "Text."


def test_the_sites_own_spec_is_where_an_entry_is_read() -> None:
    """docs.json's `api.openapi` names the site's specs (organize/settings-api.mdx): an entry naming
    no spec, under no tab or group with one, is read against it, not against another OpenAPI file
    of the source."""
    other = SPEC.replace("List widgets", "List gadgets")
    docs = {"api": {"openapi": "specs/main.yaml"}, "navigation": {"groups": [{"group": "API", "pages": ["GET /widgets"]}]}}
    files = {"docs.json": json.dumps(docs), "a-first/other.yaml": other, "specs/main.yaml": SPEC}
    result = _compose(files)
    assert [(p.path, p.title) for p in result.pages] == [("api-reference/widgets/list-widgets.mdx", "List widgets")]


def test_an_edited_spec_recomposes_its_pages_and_only_them() -> None:
    """A generated page, and a page naming an operation, depend on the spec they read (their page
    key, app/corpus/compose.py): kept while it is unchanged, composed again when it is edited."""
    from app.corpus.compose import iter_compose_files

    files = _site_files()
    blobs = {path: f"blob-{path}" for path in files}
    source = Source(name="s", repo=Path("."), dir="", audiences=("public",))

    def compose(known=None) -> ComposeResult:
        result = ComposeResult()
        for part in iter_compose_files(files, Settings(), source, blob_id=blobs.get, known=known):
            result.extend(part)
        return result

    first = compose()
    api = {"reference/get-widget.mdx", "api-reference/widgets/create-a-widget.mdx", "generated/widgets/list-widgets.mdx",
           "generated/widgets/create-a-widget.mdx", "generated/widgets/get-a-widget.mdx"}
    assert api <= {key.page for key in first.page_keys}
    keys = {key.page: key for key in first.page_keys}
    assert not compose(keys).pages  # nothing changed: every page kept
    files["api/openapi.yaml"] = SPEC.replace("Cursor of the next page", "Opaque cursor of the next page")
    blobs["api/openapi.yaml"] = "blob-edited"
    third = compose(keys)
    assert {p.path for p in third.pages} == api
    assert "Opaque cursor of the next page" in _text(third, "generated/widgets/list-widgets.mdx")


def test_authorizations_show_the_schemes_the_spec_defines() -> None:
    """mem0's operations name a scheme its spec does not define: the converter gives no parameter,
    and the page shows no Authorizations section (it showed a bare heading)."""
    spec = ("openapi: 3.0.0\ninfo: {title: T, version: '1'}\n"
            "components:\n  securitySchemes:\n    key: {type: apiKey, in: header, name: X-Api-Key, description: Your key.}\n"
            "paths:\n  /a:\n    get: {summary: A, security: [{key: []}], responses: {'200': {description: ok}}}\n"
            "  /b:\n    get: {summary: B, deprecated: true, security: [{missing: []}], responses: {'200': {description: ok}}}\n")
    result = _compose(_api_site("s.yaml", spec))
    assert "## Authorizations\n\nX-Api-Key string header required\n\nYour key." in _text(result, "api-reference/a.mdx")
    assert "Authorizations" not in _text(result, "api-reference/b.mdx")
    assert "GET /b deprecated" in _text(result, "api-reference/b.mdx")  # its badge, beside the path


def test_more_specs_than_the_reader_keeps_are_all_read() -> None:
    """The reader keeps the last 4 specs it loaded (js/src/openapi.js): the pages of 6 specs, listed
    after all 6 are loaded, get theirs sent again, and every page is indexed."""
    groups, files = [], {}
    for n in range(6):
        files[f"specs/s{n}.yaml"] = (f"openapi: 3.0.0\ninfo: {{title: T, version: '1'}}\npaths:\n  /op{n}:\n    get:\n"
                                     f"      summary: Op {n}\n      description: Operation number {n}.\n"
                                     "      responses: {'200': {description: ok}}\n")
        groups.append({"group": f"G{n}", "openapi": f"specs/s{n}.yaml"})
    files["docs.json"] = json.dumps({"navigation": {"groups": groups}})
    result = _compose(files)
    assert [(p.title, _text(result, p.path).split("\n")[0]) for p in result.pages] == [
        (f"Op {n}", f"Operation number {n}.") for n in range(6)]
    assert not result.warnings


def test_a_json_file_the_clone_lacks_does_not_fail_the_site() -> None:
    """Finding the source's OpenAPI files opens its JSON and YAML files; one whose blob the clone
    lacks (GitTree raises) is no spec, and the site composes as before."""
    from app.corpus.git_source import GitSourceError

    class Tree(dict[str, str]):
        def __getitem__(self, path: str) -> str:
            if path == "data/big.json":
                raise GitSourceError("git cannot read 'data/big.json' (missing)")
            return super().__getitem__(path)

    docs = {"navigation": {"groups": [{"group": "API", "pages": ["intro", "GET /widgets"]}]}}
    files = Tree({"docs.json": json.dumps(docs), "intro.mdx": "# Intro\n", "data/big.json": "", "openapi.yaml": SPEC})
    result = _compose(files)
    assert [p.path for p in result.pages] == ["intro.mdx", "api-reference/widgets/list-widgets.mdx"]


STRINGS = json.loads((SITE.parent / "mintlify-openapi-strings.json").read_text())["recorded"]


@pytest.mark.parametrize("case", STRINGS, ids=[case["string"] or "empty" for case in STRINGS])
def test_an_operation_string_is_read_as_mintlifys_parser_reads_it(case: dict) -> None:
    """What Mintlify's potentiallyParseOpenApiString makes of a navigation entry or front matter
    `openapi` (recorded by scripts/record_openapi_strings.mjs): the same method, path and spec, or
    no operation (a page path)."""
    parsed = case["parsed"]
    expected = None if parsed is None else (parsed.get("filename"), parsed["method"], parsed["endpoint"])
    assert site_openapi.parse_operation(case["string"]) == expected


def test_a_navigation_entry_is_an_operation_in_any_case_and_with_any_spec_name() -> None:
    """trigger.dev's navigation names `v3-openapi GET /api/v1/runs` (its spec v3-openapi.yaml
    without the extension), and Mintlify reads a method in any case: each makes the operation's page,
    none is taken for a page path the source lacks."""
    docs = {"navigation": {"groups": [{"group": "API", "pages": [
        "intro", "v3-openapi GET /widgets", "get /widgets/{widget_id}", "v3-openapi.yaml Post /widgets"]}]}}
    files = {"docs.json": json.dumps(docs), "intro.mdx": "# Intro\n", "v3-openapi.yaml": SPEC}
    result = _compose(files)
    assert [(p.path, p.place) for p in result.pages] == [
        ("intro.mdx", ("API",)), ("api-reference/widgets/list-widgets.mdx", ("API",)),
        ("api-reference/widgets/get-a-widget.mdx", ("API",)), ("api-reference/widgets/create-a-widget.mdx", ("API",))]
    assert not result.warnings, result.warnings


EXTRAS = (SITE.parent / "mintlify-openapi-extras" / "openapi.yaml").read_text()


def _extras(**replace: str) -> ComposeResult:
    spec = EXTRAS
    for old, new in replace.items():
        spec = spec.replace(old, new)
    return _compose(_api_site("openapi.yaml", spec), audiences=("public",))


def test_x_mint_metadata_and_content_make_the_page_mintlify_writes() -> None:
    """x-mint.metadata's title and description are the page's (over the summary and description,
    as the front matter Mintlify's prebuild writes); x-mint.content, the MDX body of that file,
    is shown after the description and before the fields, read as a page is: its JSX comment is
    hidden, its <Note> shown, its `##` heading a section."""
    result = _extras()
    page = next(p for p in result.pages if p.path == "api-reference/orders/create-an-order.mdx")
    assert page.title == "Place an order"
    text = _text(result, page.path)
    assert "marker-extras-description-shown" not in text  # the metadata's description replaces it
    order = ["marker-extras-metadata-description-shown", "## Before you order", "marker-extras-content-shown",
             "marker-extras-content-note-shown", "POST /orders", "## Body", "## Response 201"]
    assert [text.index(m) for m in order] == sorted(text.index(m) for m in order), text
    assert "marker-extras-content-jsx-comment-hidden" not in " ".join(c.text for c in result.chunks)


def test_an_html_comment_in_a_description_or_in_x_mint_content_stays_hidden() -> None:
    """A description is CommonMark: its HTML comment is no text. x-mint.content is MDX, where
    `<!--` does not parse (as on any Mintlify page): a warning, and nothing of it indexed."""
    result = _extras(**{"          title: Place an order\n          description: Places an order for the cart "
                        "(marker-extras-metadata-description-shown).\n": "          title: Place an order\n"})
    indexed = " ".join(c.text for c in result.chunks)
    assert "marker-extras-description-shown" in indexed
    assert "marker-extras-description-comment-hidden" not in indexed
    assert "marker-extras-content-html-comment-hidden" not in indexed and "Admins only" not in indexed
    assert ("api-reference/orders/get-an-order.mdx: the x-mint.content of the OpenAPI operation GET /orders/{id} of "
            "openapi.yaml does not parse as MDX: not indexed") in result.warnings


def test_x_mint_metadata_noindex_and_groups_are_the_pages_front_matter() -> None:
    """`noindex: true` leaves the page out as on any page; `groups` makes its audiences those
    groups (fail closed: a page for admins is never public)."""
    result = _extras()
    assert ("api-reference/orders/list-orders.mdx", "its front matter says noindex: true") in [
        (path, why.reason) for path, why in result.excluded]
    assert "marker-extras-list-shown" not in " ".join(c.text for c in result.chunks)
    chunks = [c for c in result.chunks if c.page == "api-reference/orders/get-an-order.mdx"]
    assert chunks and {c.audiences for c in chunks} == {("admin",)}


def test_code_samples_and_written_examples_are_shown_after_the_fields() -> None:
    """The side panel: x-codeSamples as code under their label (else language), the request body's
    example, each response's examples under their summary; an example Mintlify generates from the
    schema (the 404's) is not indexed."""
    text = _text(_extras(), "api-reference/orders/create-an-order.mdx")
    assert ('## Request example\n\nSDK\n\n```typescript\nconst order = await acme.orders.create({ sku: '
            '"marker-extras-sample-shown" })\n```\n\nbash\n\n```bash\ncurl -X POST https://api.acme.example/orders\n```'
            '\n\n```json\n{\n  "sku": "marker-extras-request-example-shown"\n}\n```') in text
    assert ('## Response example 201\n\nA pending order\n\n```json\n{\n  "id": "ord_1",\n  "state": '
            '"marker-extras-response-example-shown"\n}\n```\n\nA paid order\n\nPaid at once '
            '(marker-extras-example-description-shown).') in text
    assert text.index("## Response 404") < text.index("## Request example")
    assert "marker-extras-generated-example-left-out" not in text and "Response example 404" not in text


def test_a_long_example_is_cut() -> None:
    rows = "[" + ", ".join(f"{{row: {n}, name: row-number-{n}}}" for n in range(400)) + "]"
    text = _text(_extras(**{"[LONG]": rows}), "api-reference/orders/get-an-order.mdx")
    assert "marker-extras-long-example-start" in text and "row-number-60" in text
    assert "row-number-399" not in text and "\n…\n```" in text


def test_a_page_cut_at_the_field_cap_is_a_warning_naming_it() -> None:
    """A schema that fans out stops at 3,000 field lines (js/src/openapi.js MAX_FIELDS): the page is
    indexed up to there, and a warning names it, its operation and spec, and why."""
    inner = ", ".join(f"field_{n}: {{type: string}}" for n in range(80))  # the converter reads 1,000 properties at most
    properties = "".join(f"                group_{n}: {{type: object, properties: {{{inner}}}}}\n" for n in range(40))
    spec = ("openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths:\n  /wide:\n    post:\n      summary: Wide\n"
            "      requestBody:\n        content:\n          application/json:\n            schema:\n"
            "              type: object\n              properties:\n" + properties +
            "      responses: {'200': {description: ok}}\n")
    result = _compose(_api_site("wide.yaml", spec))
    text = _text(result, "api-reference/wide.mdx")
    assert text.count(" string") + text.count(" object") == 3000 and "group_37 object" in text and "group_38" not in text
    assert result.warnings == ["api-reference/wide.mdx: the OpenAPI operation POST /wide of wide.yaml has more than "
                               "3,000 fields: the first 3,000 are indexed"]


def test_a_spec_with_a_ref_to_another_file_is_refused_as_mintlify_refuses_it() -> None:
    """@mintlify/common's validate, which Mintlify's prebuild runs on every OpenAPI file, refuses a
    `$ref` to another file ("External $ref references are not allowed"), and its docs say so
    (api-playground/openapi-setup.mdx: "internal references only"): the site has no page of that
    spec, so none is indexed, even with the other file in the source; a warning names the spec,
    the reference, and Mintlify's reason."""
    spec = ("openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n      summary: A\n"
            "      description: marker-external-operation-not-published\n      responses:\n        '200':\n"
            "          description: ok\n          content:\n            application/json:\n"
            "              schema: {$ref: './schemas.yaml#/Widget'}\n")
    schemas = "Widget:\n  type: object\n  properties:\n    marker_external_field: {type: string}\n"
    files = _api_site("api.yaml", spec, **{"schemas.yaml": schemas})
    result = _compose(files)
    assert [p.path for p in result.pages] == ["intro.mdx"]
    assert ("docs.json: the pages generated from api.yaml are not indexed: api.yaml: Mintlify refuses it: External $ref "
            "references are not allowed. Found 1 external reference(s):   - paths./a.get.responses.200.content."
            "application/json.schema.$ref: ./schemas.yaml#/Widget") in result.warnings
    assert "marker" not in " ".join(c.text for c in result.chunks)


def test_odd_examples_do_not_fail_the_page() -> None:
    """An example whose summary is not text, and code samples that are not a list (the converter
    reports them and gives none): the page is indexed with what can be shown."""
    odd = EXTRAS.replace("                  summary: A pending order", "                  summary: [not, text]")
    odd = odd.replace("      x-codeSamples:\n        - lang: typescript", "      x-codeSamples: {}\n      x-other:\n        - lang: typescript")
    result = _compose(_api_site("openapi.yaml", odd))
    text = _text(result, "api-reference/orders/create-an-order.mdx")
    assert "## Response example 201\n\npending\n\n```json" in text and "marker-extras-response-example-shown" in text
    assert "marker-extras-sample-shown" not in text and "marker-extras-request-example-shown" in text


@pytest.mark.parametrize("scraped", sorted((SITE.parent / "mintlify-openapi-extras" / "scraped").glob("*.mdx")),
                         ids=lambda p: p.name)
def test_a_generated_page_is_the_file_mintlifys_scraper_writes(scraped: Path) -> None:
    """Mintlify's own OpenAPI-to-pages tool wrote these files for the extras spec (its README):
    the front matter decides the page's title, whether it is indexed and who sees it; the body
    (x-mint.content), read as any Mintlify page, is on the page before the operation's method and
    path, or, when it does not parse, nothing of it is."""
    from app.corpus.frontmatter import parse_front_matter
    from app.corpus.markdown import read_page

    result = _extras()
    front = parse_front_matter(scraped.read_text())
    path = f"api-reference/orders/{scraped.name}"
    page = next((p for p in result.pages if p.path == path), None)
    if front.data.get("noindex") is True:
        assert page is None and path in [p for p, _ in result.excluded]
        return
    assert page is not None
    method, endpoint = str(front.data["openapi"]).split()
    assert page.title == (front.title or {"/orders": "Create an order", "/orders/{id}": "Get an order"}[endpoint])
    assert set(page.audiences) == set(front.audiences(groups=True) or ("public",))
    text = _text(result, path)
    body = read_page(front.body, mdx=True, mintlify=True)
    if body.error is not None:
        assert not {word for word in front.body.split() if word.startswith("marker-")} & set(text.split())
        assert "Admins only" not in text
        return
    shown = [block.text for block in body.blocks]
    assert shown and all(text.index(b) < text.index(f"{method.upper()} {endpoint}") for b in shown)


def test_x_mint_href_is_where_the_page_is_published() -> None:
    """`x-mint.href` sets the generated page's URL (Mintlify's generateOpenApiPages reads it)."""
    spec = EXTRAS.replace("      x-mint:\n        metadata: {groups: [admin]}",
                          "      x-mint:\n        href: /guides/one-order\n        metadata: {groups: [admin]}")
    result = _compose(_api_site("openapi.yaml", spec))
    assert "guides/one-order.mdx" in {p.path for p in result.pages}
    assert "api-reference/orders/get-an-order.mdx" not in {p.path for p in result.pages}
    assert any(c.href.endswith("/guides/one-order") for c in result.chunks if c.page == "guides/one-order.mdx")


def test_metadata_that_cannot_say_who_reads_the_page_makes_it_internal(monkeypatch: pytest.MonkeyPatch) -> None:
    """x-mint.metadata declaring two audiences at odds, or front matter Mintlify's writer could not
    write: a warning, and the page is internal, never the source's public default."""
    spec = EXTRAS.replace("metadata: {groups: [admin]}", "metadata: {public: true, audience: internal}")
    result = _compose(_api_site("openapi.yaml", spec))
    chunks = [c for c in result.chunks if c.page == "api-reference/orders/get-an-order.mdx"]
    assert chunks and {c.audiences for c in chunks} == {("internal",)}
    assert [w for w in result.warnings if w.startswith("api-reference/orders/get-an-order.mdx: x-mint.metadata of the "
                                                       "OpenAPI operation GET /orders/{id} of openapi.yaml: ")]
    real = site_openapi.read_openapi_spec

    def unwritten(key: str, text: str, file: str) -> dict:
        answer = real(key, text, file)
        for page in answer.get("pages", []):
            page["front"] = None
        return answer

    monkeypatch.setattr(site_openapi, "read_openapi_spec", unwritten)
    monkeypatch.setattr(site_openapi, "_LOADED", {})
    result = _compose(_api_site("openapi.yaml", EXTRAS.replace("Create an order", "Create one order")))
    generated = [c for c in result.chunks if c.page.startswith("api-reference/")]
    assert generated and {c.audiences for c in generated} == {("internal",)}
    assert ("api-reference/orders/create-one-order.mdx: x-mint.metadata of the OpenAPI operation POST /orders of "
            "openapi.yaml: Mintlify's writer cannot write it as front matter; the page is internal") in result.warnings
