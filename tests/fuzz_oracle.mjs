// The fuzz test's oracle (tests/test_markdown_fuzz.py): reads JSON lines {name, text} on stdin and
// writes JSON lines {name, shown, refused} with the markers (`zz…`) the real renderer shows, as
// scripts/record_probes.mjs judges them: micromark + GFM for `.md`, @mdx-js/mdx 3 + remark-gfm
// evaluated and rendered by react-dom/server for `.mdx` (every component a <div> with its title
// and children), the HTML parsed by parse5, text outside comments, script, style, template and
// noscript (and an image's alt) shown. NODE_MODULES names the folder holding those packages.
import { createRequire } from "node:module";
import path from "node:path";
import readline from "node:readline";

const require = createRequire(path.join(process.env.NODE_MODULES ?? process.cwd(), "x.js"));
const load = async (name) => import(require.resolve(name));
const { micromark } = await load("micromark");
const { gfm, gfmHtml } = await load("micromark-extension-gfm");
const { evaluate } = await load("@mdx-js/mdx");
const remarkGfm = (await load("remark-gfm")).default;
const React = await load("react");
const runtime = await load("react/jsx-runtime");
const { renderToStaticMarkup } = await load("react-dom/server");
const { parse } = await load("parse5");

const MARKER = /zz[0-9]+q/g;
const HIDDEN = new Set(["script", "style", "template", "noscript"]);

function shownText(html) {
  const out = [];
  const walk = (node) => {
    if (node.nodeName === "#text") out.push(node.value);
    if (node.nodeName === "img") out.push(...(node.attrs ?? []).filter((a) => a.name === "alt").map((a) => a.value));
    if (node.nodeName === "#comment" || HIDDEN.has(node.nodeName)) return;
    for (const child of node.childNodes ?? []) walk(child);
    if (node.content) walk(node.content);
  };
  walk(parse(html));
  return out.join(" ");
}

const Any = ({ title, children }) => React.createElement("div", null, title ?? null, children);

async function render(name, text) {
  if (name.endsWith(".md")) {
    return micromark(text, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
  }
  const { default: Content } = await evaluate(text, { ...runtime, remarkPlugins: [remarkGfm] });
  const components = Object.fromEntries([...text.matchAll(/<([A-Z][\w]*)/g)].map((m) => [m[1], Any]));
  return renderToStaticMarkup(React.createElement(Content, { components }));
}

for await (const line of readline.createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const { name, text } = JSON.parse(line);
  let answer;
  try {
    answer = { name, shown: [...new Set(shownText(await render(name, text)).match(MARKER) ?? [])] };
  } catch (error) {
    answer = { name, refused: String(error.message ?? error).split("\n")[0] };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
