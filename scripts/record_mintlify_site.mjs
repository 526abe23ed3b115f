// Renders each page of a Mintlify site to HTML with Mintlify's own published packages, for
// scripts/record_mintlify_site.py (which loads the pages in Chromium and takes their innerText).
//
//   node scripts/record_mintlify_site.mjs <node_modules> <site> <out>
//
// A page is compiled as Mintlify's server compiles it: its `import … from '/snippets/…'` resolved
// into the page by @mintlify/common's resolveAllImports (the prebuild step), then getMdx
// (@mintlify/common/server-mdx: @mintlify/mdx's serialize with Mintlify's remark and rehype
// plugins, which drop unknown components, paste `<Snippet file>`, extract panels and examples).
// The compiled page is run by next-mdx-remote-client (what @mintlify/mdx runs it with) and
// rendered by React's renderToStaticMarkup with @mintlify/components.
//
// What is not Mintlify's code: the hosted client that maps a page's component names onto
// @mintlify/components is not published (`mint dev` downloads it from releases.mintlify.com).
// COMPONENTS below is that mapping, written from the components' documentation
// (../shared/corpora/mintlify-docs/components/*.mdx) and their props; the page's title and
// description are written as the hosted page shows them, above the content.
// Prints one JSON line: the versions used; per page, the HTML file written (null for a page MDX
// cannot parse); warnings; and the component names left unmapped (rendered as their children).
import {createRequire} from 'node:module'
import {mkdirSync, readFileSync, readdirSync, statSync, writeFileSync} from 'node:fs'
import {dirname, join, relative} from 'node:path'
import {pathToFileURL} from 'node:url'

const [nodeModules, site, out] = process.argv.slice(2)
const require = createRequire(join(nodeModules, 'noop.js'))
const load = (name) => import(pathToFileURL(require.resolve(name)).href)
const version = (name) => JSON.parse(readFileSync(join(nodeModules, name, 'package.json'), 'utf8')).version

const common = await load('@mintlify/common')
const {getMdx} = await load('@mintlify/common/server-mdx')
const {hydrate} = await load('next-mdx-remote-client/csr')
// Not in the package's exports: the CSS Mintlify generates for the Tailwind classes a page uses
// (rehypeDynamicTailwindCss prefixes those classes with `mint-`), so `className="hidden"` hides.
const {getDynamicTailwindCss} = await import(pathToFileURL(join(nodeModules, '@mintlify', 'common', 'dist', 'css', 'tailwind.js')).href)
const React = (await load('react')).default
const {renderToStaticMarkup} = await load('react-dom/server')
const C = await load('@mintlify/components')
const h = React.createElement

// The page's component names → @mintlify/components (the hosted client's mapping, not published).
const FIELD_NAMES = ['query', 'path', 'body', 'header', 'cookie', 'auth', 'param']
const field = (names) => (props) => {
  const key = names.find((k) => typeof props[k] === 'string')
  return h(C.Property, {name: key === undefined ? undefined : props[key], type: props.type, default: props.default,
    required: props.required, deprecated: props.deprecated, pre: props.pre, post: props.post, hidden: props.hidden,
    children: props.children})
}
const COMPONENTS = {
  Accordion: ({defaultOpen = false, ...props}) => h(C.Accordion, {defaultOpen, ...props}),
  AccordionGroup: C.Accordion.Group,
  Badge: C.Badge,
  Callout: C.Callout,
  Card: C.Card,
  CardGroup: ({cols, children}) => h(C.Columns, {cols: cols || 2, children}),
  Columns: C.Columns,
  // rehypeCodeBlocks wraps each fenced block in <CodeBlock filename language …>.
  CodeBlock: C.CodeBlock,
  // A code group renders only its selected block (the others on a click, not in the HTML): rendered
  // once per block, each selected in turn, so text one click away is in the page as a tab's is.
  CodeGroup: (props) => h(React.Fragment, null, ...React.Children.toArray(props.children)
    .map((child, index) => h(C.CodeGroup, {...props, key: index, initialSelectedTab: index}))),
  Color: C.Color,
  Check: C.Check,
  Danger: C.Danger,
  Info: C.Info,
  Note: C.Note,
  Tip: C.Tip,
  Warning: C.Warning,
  Expandable: C.Expandable,
  // rehypeTable turns a Markdown table into <Table> (its numeric columns aligned): a table still.
  Table: ({children}) => h('table', null, children),
  // rehypeZoomImages turns an <img> into <OptimizedImage> (an image the reader can zoom).
  OptimizedImage: (props) => h('img', {src: props.src, alt: props.alt}),
  ZoomImage: ({children}) => h(React.Fragment, null, children),
  // remarkExtractTableOfContents turns every heading into <Heading level id>.
  Heading: ({level, id, children}) => h(`h${level || 2}`, {id}, children),
  Frame: ({caption, children}) => h(C.Frame, {as: 'div', style: {}, className: '', description: caption, children}),
  // An icon is no text; one with no `icon` (`<Icon name="…">`) makes the component throw: nothing.
  Icon: (props) => (props.icon ? h(C.Icon, props) : null),
  ParamField: field(FIELD_NAMES),
  ResponseField: field(['name']),
  Steps: C.Steps,
  Step: C.Steps.Item,
  Tabs: C.Tabs,
  Tab: C.Tabs.Item,
  Tile: C.Tile,
  Tooltip: ({tip, headline, cta, href, children}) => h(C.Tooltip, {description: tip, title: headline, cta, href, children}),
  Tree: C.Tree,
  Update: ({id, label, description, tags, children}) =>
    h(C.Update, {id: id || String(label), label, description, tags, isVisible: true, children}),
  // <Visibility for="humans"> shows on the page, "agents" (or anything else) does not: the rule of
  // @mintlify/common's resolveVisibilityFor/isHiddenFromHumans, for a literal `for`.
  Visibility: (props) => (props.for === 'humans' ? h(React.Fragment, null, props.children) : null)
}

// "React hooks are pre-injected: useState, useEffect, useRef, useCallback, useMemo, useContext, and
// useReducer are available without importing them" (customize/react-components.mdx, Mintlify's docs).
const HOOKS = Object.fromEntries(['useState', 'useEffect', 'useRef', 'useCallback', 'useMemo', 'useContext',
  'useReducer'].map((name) => [name, React[name]]))

function frontMatter(text) {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text)
  if (!match) return [{}, text]
  const data = {}
  for (const line of match[1].split(/\r?\n/)) {
    const pair = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line)
    if (pair) data[pair[1]] = pair[2].replace(/^(["'])(.*)\1$/, '$2')
  }
  return [data, text.slice(match[0].length)]
}

function files(folder) {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name)
    return statSync(path).isDirectory() ? files(path) : [path]
  })
}

const all = files(site).map((path) => relative(site, path).split('\\').join('/'))
const snippets = all.filter((p) => p.startsWith('snippets/') && /\.(mdx|md|jsx|tsx)$/.test(p)).map((p) => ({
  filename: '/' + p, tree: common.getAST(readFileSync(join(site, p), 'utf8'), '/' + p),
  snippetFileLocation: p.slice('snippets/'.length), content: readFileSync(join(site, p), 'utf8')
}))
// A snippet's own imports resolved first, those it imports before it (Mintlify's docs: "Snippets can
// import other snippets"): @mintlify/prebuild 1.0.1370's resolveImportsInSnippets
// (dist/prebuild/update/resolveImportsAndWriteFiles.js), with @mintlify/common's functions.
const warnings = []
{
  const withImports = await Promise.all(snippets.map(async (snippet) =>
    ({...(await common.findAndRemoveImports(snippet.tree)), filename: snippet.filename})))
  const graph = Object.fromEntries(withImports.map((snippet) => [snippet.filename, Object.keys(snippet.importMap)]))
  const ordered = common.topologicalSort(graph).reverse()
    .map((filename) => withImports.find((snippet) => snippet.filename === filename)).filter(Boolean)
  for (const snippet of ordered) {
    if (common.hasImports(snippet)) {
      snippet.tree = await common.resolveAllImports({snippets: ordered, fileWithImports: snippet,
        onWarning: (w) => warnings.push(`${snippet.filename}: ${w.message}`)})
    }
  }
  for (const snippet of snippets) snippet.tree = withImports.find((w) => w.filename === snippet.filename).tree
}
const pages = {}
const unmapped = {}
for (const page of all.filter((p) => /\.mdx?$/.test(p) && !p.startsWith('snippets/'))) {
  try {
    const [metadata, body] = frontMatter(readFileSync(join(site, page), 'utf8'))
    // The prebuild step: a page's snippet imports pasted into it (Mintlify resolves them before compiling).
    let content = body
    let tree = common.getAST(body, '/' + page)
    const {importMap, tree: withoutImports} = await common.findAndRemoveImports(tree)
    if (Object.keys(importMap).length) {
      tree = await common.resolveAllImports({snippets, fileWithImports: {filename: '/' + page, tree: withoutImports, importMap},
        onWarning: (w) => warnings.push(`${page}: ${w.message}`)})
      content = common.stringifyTree(tree)
    }
    const compiled = await getMdx({path: page, content, metadata, snippets, subdomain: 'acme', codeStyling: 'dark',
      config: JSON.parse(readFileSync(join(site, 'docs.json'), 'utf8'))})
    if (compiled.parseFailed) warnings.push(`${page}: MDX failed to parse (Mintlify shows its placeholder)`)
    // A component the plugins or the page name that COMPONENTS does not map: its children, reported.
    const components = {...COMPONENTS}
    for (const [, name] of compiled.mdxSource.compiledSource.matchAll(/_missingMdxReference\("([\w.]+)"/g)) {
      const [root, ...path] = name.split('.')
      let known = components[root]
      for (const part of path) known = known && known[part]
      if (known) continue
      const children = ({children}) => h('div', null, children)
      if (!components[root]) components[root] = children
      else if (path.length) components[root] = Object.assign((props) => COMPONENTS[root](props), COMPONENTS[root])
      if (path.length) components[root][path.join('.')] = children
      unmapped[name] = [...(unmapped[name] || []), page]
    }
    const run = (source) => {
      const {content: element, error} = hydrate({...source, scope: {...source.scope, ...HOOKS}, components})
      if (error) throw new Error(`${page}: ${error}`)
      return element
    }
    // The hosted page's right column: the <Panel> and the request and response examples, which the
    // plugins take out of the content (mdxExtracts).
    const examples = Object.values(compiled.mdxExtracts.codeExamples || {}).filter(Boolean)
      .flatMap((example) => example.children.map((child) => child.html))
    const aside = compiled.panelMdxSource || examples.length
      ? h('aside', null, compiled.panelMdxSource ? run(compiled.panelMdxSource) : null,
        ...examples.map((html, i) => h('div', {key: i, dangerouslySetInnerHTML: {__html: html}})))
      : null
    const html = renderToStaticMarkup(h('article', {id: 'content'},
      h('header', null, h('h1', null, metadata.title || ''), metadata.description ? h('p', null, metadata.description) : null),
      h('div', {className: 'mdx-content prose'}, run(compiled.mdxSource)), aside))
    const file = join(out, page.replace(/\.mdx?$/, '.html'))
    mkdirSync(dirname(file), {recursive: true})
    const css = pathToFileURL(join(nodeModules, '@mintlify', 'components', 'dist', 'styles.css')).href
    const pageCss = await getDynamicTailwindCss({content: compiled.mdxSource.compiledSource})
    writeFileSync(file, `<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="${css}">` +
      `<style>${pageCss}</style></head><body>${html}</body></html>\n`)
    pages[page] = file
  } catch (error) {
    // A page MDX cannot parse: Mintlify's build names it and shows a placeholder for its text.
    pages[page] = null
    warnings.push(`${page}: ${String(error.reason || error.message || error).split('\n')[0]}`)
  }
}
const versions = Object.fromEntries(['@mintlify/common', '@mintlify/mdx', '@mintlify/components',
  'next-mdx-remote-client', 'react', 'react-dom'].map((name) => [name, version(name)]))
process.stdout.write(JSON.stringify({versions, pages, warnings, unmapped}) + '\n')
