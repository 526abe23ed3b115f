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
// Docusaurus's own plugin for `<!-- … -->` in MDX (its markdown.mdx1Compat.comments, on by default).
const remarkComment = (await load("@slorber/remark-comment")).default;
// Mintlify renders math with KaTeX (remark-math + rehype-katex): `mintlify-*` probes.
const remarkMath = (await load("remark-math")).default;
const rehypeKatex = (await load("rehype-katex")).default;
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

// `snippets` ({"/snippets/x.mdx": text}) are the files a page imports (`import X from
// "/snippets/x.mdx"`) or names in Mintlify's `<Snippet file="x.mdx" />`: each is evaluated as its
// own MDX module, and the page's binding is that module's component (the import statement, which
// evaluate() cannot resolve without a bundler, is taken out and the binding passed as a component).
// A probe named `docusaurus-*` is rendered as Docusaurus 3 renders it: `.md` and `.mdx` alike as
// MDX (markdown.format "mdx", its default) with HTML comments (mdx1Compat.comments).
export async function render(name, text, snippets = {}) {
  if (name.startsWith("mintlify-")) { // its snippets too (`/snippets/x.jsx`'s React components)
    const plugins = { remarkPlugins: [remarkGfm, remarkMath], rehypePlugins: [rehypeKatex] };
    return renderToStaticMarkup(React.createElement(await component(text, snippets, plugins), {}));
  }
  if (name.startsWith("docusaurus-")) {
    const { default: Content } = await evaluate(text, { ...runtime, remarkPlugins: [remarkGfm, remarkComment] });
    const components = Object.fromEntries([...text.matchAll(/<([A-Z][\w]*)/g)].map((m) => [m[1], Any]));
    return renderToStaticMarkup(React.createElement(Content, { components }));
  }
  if (name.endsWith(".md")) {
    return micromark(text, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
  }
  return renderToStaticMarkup(React.createElement(await component(text, snippets), {}));
}

async function component(text, snippets, plugins = { remarkPlugins: [remarkGfm] }) {
  const bound = {};
  const IMPORT = /^import\s+([A-Za-z_$][\w$]*)\s+from\s+["'](\/snippets\/[^"']+)["'];?[ \t]*$/gm;
  for (const [, binding, file] of text.matchAll(IMPORT)) bound[binding] = await component(snippets[file], snippets, plugins);
  // `import {A, B} from "/snippets/x.jsx"`: React components of a module of `export`s, evaluated as
  // MDX's ESM (which is JavaScript with JSX), its bindings the page's.
  const NAMED = /^import\s+\{([^}]*)\}\s+from\s+["'](\/snippets\/[^"']+\.jsx)["'];?[ \t]*$/gm;
  for (const [, names, file] of text.matchAll(NAMED)) {
    const module = await evaluate(snippets[file], { ...runtime });
    for (const name of names.split(",").map((n) => n.trim()).filter(Boolean)) bound[name] = module[name];
  }
  const { default: Content } = await evaluate(text.replace(IMPORT, "").replace(NAMED, ""), { ...runtime, ...plugins });
  const components = Object.fromEntries([...text.matchAll(/<([A-Z][\w]*)/g)].map((m) => [m[1], Any]));
  const tags = [...text.matchAll(/<Snippet\s+file=["']([^"']+)["']/g)].map((m) => m[1]);
  if (tags.length) {
    const files = {};
    for (const file of tags) files[file] = await component(snippets["/snippets/" + file], snippets, plugins);
    components.Snippet = ({ file }) => React.createElement(files[file]);
  }
  return (props) => React.createElement(Content, { ...props, components: { ...components, ...bound } });
}
