// Records what the real renderers show of each probe under tests/data/markdown-probes/ (a page
// holding marker words `zz…`): micromark + GFM for `.md` (raw HTML passed through, as a site
// does), @mdx-js/mdx 3 + remark-gfm for `.mdx` (evaluated, rendered with react-dom/server, every
// component a <div> showing its title and children). The rendered HTML is parsed as a browser
// parses it (parse5), and a marker is "shown" when it is in a text node outside comments,
// <script>, <style>, <template> and <noscript> (an image's alt text counts as shown). Writes recorded.json beside the probes; the test
// (tests/test_probes.py) then needs neither Node nor npm.
//
// CSS hides text parse5 cannot judge (`hidden`, `display:none`): the probes named `css-*` (and
// `snippet-*`, whose snippets hide text so) are written as HTML to $PROBE_HTML (when set), and
// scripts/record_probes_innertext.py records what Chromium's innerText shows of them.
//
// A `css-tailwind-*` probe gets the utilities Mintlify compiles for a page (@mintlify/common's
// getDynamicTailwindCss: Tailwind 3.4.17 over the page's text, utilities only, no preflight, dark
// mode by class; its `mint-` prefix, given to the page's classes and the CSS alike, left out),
// written into the HTML's head for Chromium to apply.
//
// A probe may import snippets/x.mdx of the probes' folder as "/snippets/x.mdx" (or name it in
// Mintlify's `<Snippet file="x.mdx" />`); its markers count as the page's.
//
// Run where the packages are installed:
//   npm install --prefix /tmp/x micromark micromark-extension-gfm @mdx-js/mdx remark-gfm react react-dom parse5 \
//     postcss tailwindcss-v3@npm:tailwindcss@3.4.17   (or NODE_MODULES=app/corpus/js/node_modules, which holds them)
//   NODE_PATH=/tmp/x/node_modules node scripts/record_probes.mjs   (or run it from that folder)
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { render, shownText } from "./renderer_oracle.mjs";

const folder = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "tests", "data", "markdown-probes");
const MARKER = /zz[a-z0-9]+/g;

// Snippets the probes import: tests/data/markdown-probes/snippets/x.mdx is "/snippets/x.mdx".
const snippetFolder = path.join(folder, "snippets");
const snippets = Object.fromEntries(readdirSync(snippetFolder).map((f) => ["/snippets/" + f, readFileSync(path.join(snippetFolder, f), "utf8")]));
const recorded = {};
for (const name of readdirSync(folder).filter((f) => /\.mdx?$/.test(f)).sort()) {
  const text = readFileSync(path.join(folder, name), "utf8");
  // A page's markers, and those of the snippets it names (pasted where it uses them).
  const named = Object.keys(snippets).filter((f) => text.includes(path.basename(f))).map((f) => snippets[f]);
  const markers = [...new Set([text, ...named].join("\n").match(MARKER) ?? [])].sort();
  const renderer = name.startsWith("mintlify-") ? "@mdx-js/mdx 3 + remark-gfm + remark-math + rehype-katex (Mintlify)"
    : name.startsWith("docusaurus-") ? "@mdx-js/mdx 3 + remark-gfm + @slorber/remark-comment (Docusaurus 3)"
    : name.endsWith(".md") ? "micromark 4 + gfm" : "@mdx-js/mdx 3 + remark-gfm";
  try {
    const html = await render(name, text, snippets);
    if (process.env.PROBE_HTML && /^(css|snippet|docusaurus|mintlify)-/.test(name)) {
      mkdirSync(process.env.PROBE_HTML, { recursive: true });
      const head = name.startsWith("css-tailwind-") ? `<style>${await tailwindCss(text)}</style>` : "";
      writeFileSync(path.join(process.env.PROBE_HTML, name + ".html"), `<!doctype html><meta charset="utf-8">${head}<body>${html}</body>`);
    }
    const shown = new Set(shownText(html).match(MARKER) ?? []);
    recorded[name] = { renderer, shown: markers.filter((m) => shown.has(m)), hidden: markers.filter((m) => !shown.has(m)) };
  } catch (error) {
    recorded[name] = { renderer, refused: String(error.message ?? error).split("\n")[0] };
  }
}
async function tailwindCss(content) {
  const require = createRequire(path.join(process.env.NODE_MODULES ?? process.cwd(), "x.js"));
  const postcss = require("postcss");
  const tailwindcss = require("tailwindcss-v3");
  const plugin = tailwindcss({ content: ["html", "tsx", "mdx"].map((extension) => ({ raw: content, extension })),
    corePlugins: { preflight: false }, darkMode: "class" });
  return (await postcss([plugin]).process("@tailwind utilities;", { from: undefined })).css;
}

writeFileSync(path.join(folder, "recorded.json"), JSON.stringify(recorded, null, 1) + "\n");
console.log(`${Object.keys(recorded).length} probes recorded`);
