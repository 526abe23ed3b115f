// Records what Mintlify's own potentiallyParseOpenApiString (@mintlify/common, the function its
// prebuild's generateOpenApiFromDocsConfig asks of every navigation entry, and a page's `openapi`
// front matter is read by) makes of each string below: {method, endpoint, filename} or null (not
// an operation: a page path). tests/test_site_openapi.py compares app/corpus/site_openapi.py's
// parse_operation with it. Run from the repository root, after scripts/build_page_reader.sh
// installed the packages:
//   node scripts/record_openapi_strings.mjs > tests/data/site-nav/mintlify-openapi-strings.json
import { potentiallyParseOpenApiString } from "../app/corpus/js/node_modules/@mintlify/common/dist/openapi/parseOpenApiString.js";

const strings = [
  "GET /users", "get /users", "Get /users", "POST /widgets", "delete /a/{id}", "OPTIONS /", "HEAD /h", "trace /t",
  "PATCH /p", "PUT /p", "webhook new-order", "WEBHOOK new-order", "CONNECT /c", "QUERY /q",
  "openapi.json POST /users", "/openapi.json POST /users", "v3-openapi GET /api/v1/runs", "specs/api.yml get /a",
  "openapi GET", "  GET   /spaced  ", "GET\t/tab", "a b c d", "GET", "", "   ", "quickstart", "guides/deploy",
  "get-started", "api/get /users", "spec.yaml GET /a extra", "my spec GET", "GET /users?x=1", "get users",
  "GET /users/{id} ",
  // Whitespace as JavaScript's \s and trim() see it, not as Python's str.split does.
  "GET\u00a0/nbsp", "GET\u001f/unit-separator", "\ufeffGET /bom", "GET\u0085/nel", "GET\u3000/ideographic",
];
const recorded = strings.map((s) => ({ string: s, parsed: potentiallyParseOpenApiString(s) ?? null }));
console.log(JSON.stringify({ "@mintlify/common": "1.0.1183", recorded }, null, 1));
