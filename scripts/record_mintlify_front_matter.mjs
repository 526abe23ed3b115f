// Records how Mintlify reads a page's `hidden` and `noindex` front matter: @mintlify/common's
// parseFrontmatter (the `front-matter` package, js-yaml 3's YAML 1.2) and its navigation's
// `if (page.hidden)` (JavaScript's truthiness). Writes tests/data/mintlify-front-matter.json, which
// tests/test_mintlify_front_matter.py checks compose against (PyYAML reads YAML 1.1: `no` is false
// there, the string "no", true, here).
//
//   NODE_MODULES=app/corpus/js/node_modules node scripts/record_mintlify_front_matter.mjs
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(path.join(process.env.NODE_MODULES ?? process.cwd(), "x.js"));
const frontMatter = require("front-matter"); // what @mintlify/common's parseFrontmatter calls
const VALUES = ["true", "True", "TRUE", "false", "False", "FALSE", "yes", "Yes", "YES", "no", "No", "NO", "on", "On",
  "ON", "off", "Off", "OFF", "y", "n", "0", "1", "~", "null", "''", "'no'", "\"false\"", "0:00", "00", "0.0", "0x0"];
const recorded = {};
for (const value of VALUES) {
  const { attributes } = frontMatter(`---\ntitle: Page\nhidden: ${value}\nnoindex: ${value}\n---\n\nText.\n`);
  recorded[value] = { value: attributes.hidden ?? null, hidden: Boolean(attributes.hidden), noindex: Boolean(attributes.noindex) };
}
const out = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "tests", "data", "mintlify-front-matter.json");
writeFileSync(out, JSON.stringify({ parser: `front-matter ${require("front-matter/package.json").version}`, values: recorded }, null, 1) + "\n");
console.log(`${VALUES.length} values recorded`);
