// What the real renderers show of a page, for the probes (scripts/record_probes.mjs) and the fuzz
// test's oracle (tests/fuzz_oracle.mjs): micromark + GFM for `.md` (raw HTML passed through, as a
// site does), @mdx-js/mdx 3 + remark-gfm for `.mdx` (evaluated, rendered with react-dom/server,
// every component a <div> showing its title and children); the HTML parsed as a browser parses it
// (parse5), text outside comments, <script>, <style>, <template> and <noscript> shown (and an
// image's alt). NODE_MODULES (or the working folder) holds the packages.
import { createRequire } from "node:module";
import path from "node:path";

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

const HIDDEN = new Set(["script", "style", "template", "noscript"]);

export function shownText(html) {
  const out = [];
  const walk = (node) => {
    if (node.nodeName === "#text") out.push(node.value);
    // An image's alt text is the page's text where the image does not load, and a screen reader's.
    if (node.nodeName === "img") out.push(...(node.attrs ?? []).filter((a) => a.name === "alt").map((a) => a.value));
    if (node.nodeName === "#comment" || HIDDEN.has(node.nodeName)) return;
    for (const child of node.childNodes ?? []) walk(child);
    if (node.content) walk(node.content);
  };
  walk(parse(html));
  return out.join(" ");
}

// Every component a <div> with its title and children, as a docs theme shows them.
const Any = ({ title, children }) => React.createElement("div", null, title ?? null, children);

export async function render(name, text) {
  if (name.endsWith(".md")) {
    return micromark(text, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
  }
  const { default: Content } = await evaluate(text, { ...runtime, remarkPlugins: [remarkGfm] });
  const components = Object.fromEntries([...text.matchAll(/<([A-Z][\w]*)/g)].map((m) => [m[1], Any]));
  return renderToStaticMarkup(React.createElement(Content, { components }));
}
