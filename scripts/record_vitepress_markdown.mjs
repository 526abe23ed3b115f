// Records the HTML VitePress's own markdown-it renderer (createMarkdownRenderer, with every plugin it
// turns on) makes of each Markdown case in CASES: tests/test_vitepress_markdown_cases.py reads that
// HTML and docschat's (app/corpus/vitepress_markdown.py) with the same page reader and compares
// the blocks. Cases where docschat's port must agree: `{…}` attributes (@mdit/plugin-attrs), boxes,
// Vue components' lines (@mdit-vue/plugin-component).
// Writes tests/data/vitepress-markdown.json. VitePress is not a docschat dependency:
//
//   mkdir /tmp/vp && cd /tmp/vp && npm install vitepress@2.0.0-alpha.19 vue
//   node scripts/record_vitepress_markdown.mjs /tmp/vp
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const install = path.resolve(process.argv[2] ?? ".");
const vitepress = path.join(install, "node_modules", "vitepress");
const { createMarkdownRenderer } = await import(pathToFileURL(path.join(vitepress, "dist", "node", "index.js")).href);
const CASES = [
  "A paragraph {style=\"display: none\"}", "A paragraph {hidden}", "A paragraph {.note}", "A line\n{hidden}",
  "- item {hidden}\n- two", "1. one {hidden}\n2. two", "- a\n- b\n\n{hidden}", "- a\n  {hidden}",
  "*em*{hidden} and **b**{hidden} and `c`{hidden} [l](/x){hidden} tail", "![alt](/x.png){hidden} after",
  "| a | b |\n|---|---|\n| cell {hidden} | x |", "| a |\n|---|\n| x |\n\n{hidden}", "> quote {hidden}",
  "## Head {hidden}\n\nbody", "p\n\n--- {hidden}\n\nafter", "Text\n\n{hidden}\n\nmore",
  "text *em {hidden}*", "text `code {hidden}`", "a {hidden} b", "x {}", "text {.}", "{\"a\"}",
  "a {b=\"x y\" .c #d}", "a {data-x=\"}\" hidden}", "a {hidden} {hidden}", "a\\{hidden}",
  "::: info {hidden}\nbody\n:::", "::: details Sum {hidden}\nbody\n:::", "::: tip {style=\"display:none\" #x}\nbody\n:::",
  "::: tip Title {.x}\nbody\n:::", "::: info{hidden}\nbody\n:::", "::: raw {hidden}\nbody\n:::",
  "> [!TIP] {hidden}\n> body", "- [ ] task {hidden}\n- [x] done",
  // Vue components (@mdit-vue/plugin-component): a component's line is HTML, not a paragraph.
  "<NamedSlot><template #title>shown</template></NamedSlot>", "Text <span @click=\"x\" v-if=\"false\">a</span> tail",
  "<MyComp>**x**</MyComp> tail\nnext line", "<span>inline</span> starts a paragraph **b**",
  "<div v-if=\"false\">x</div> after", "<Foo\n  :a=\"1\"\n/>\n\ntext", "<my-comp #default>x</my-comp>",
  "a paragraph\n<Comp>interrupts it</Comp>", "<Comp v-if=\"false\">\n\n**md** inside\n\n</Comp>",
  "- item\n  <Comp>in a list</Comp>", "<Comp>\nline two *em*\n\nafter", "<template v-if=\"false\">hidden</template> shown",
  // `[[toc]]` (@mdit-vue/plugin-toc): the headings of levels 2 and 3, nested.
  "[[toc]]\n\n# Title\n\n## One *em* `code`\n\n### Sub\n\n#### Deep\n\n## Two <Badge text=\"b\" />\n\n## Three {#x}",
  "[[TOC]] words after\n\n## A", "text\n[[toc]]\n\n## B", "> [[toc]]\n\n## C", "    [[toc]]\n\n## D",
  "- [[toc]]\n\n## E", "[[toc]]x\n\n## F",
];
const md = await createMarkdownRenderer(mkdtempSync(path.join(tmpdir(), "vp-")), {}, "/");
const cases = [];
for (const markdown of CASES) cases.push({ markdown, html: await md.renderAsync(markdown, {}) });
const version = JSON.parse(readFileSync(path.join(vitepress, "package.json"), "utf8")).version;
const out = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "tests", "data", "vitepress-markdown.json");
writeFileSync(out, JSON.stringify({ renderer: `vitepress ${version} createMarkdownRenderer`, cases }, null, 1) + "\n");
console.log(`${cases.length} cases recorded in ${out}`);
