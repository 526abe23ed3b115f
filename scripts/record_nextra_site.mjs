// Records what Nextra's own code makes of a Nextra 4 project's files: each page's route, the
// theme's breadcrumb (normalizePages' activePath) and the sidebar's order (flatDocsDirectories).
//
//   mkdir /tmp/nx && cp -r tests/data/site-nav/nextra/. /tmp/nx/ && cd /tmp/nx && npm install
//   (cd /tmp/nx && node node_modules/next/dist/bin/next build > /tmp/nextra-build.log 2>&1)
//   node scripts/record_nextra_site.mjs tests/data/site-nav/nextra /tmp/nx/node_modules /tmp/nx/out \
//     > tests/data/site-nav/nextra.recorded.json
//
// `next build` (its static export, `out/`) gives the routes built. The fixture's package.json pins
// zod 4.1.13: with zod 4.6 every page failed prerendering in the theme's layout (session 36's four
// builds; the message, in `next dev`: "expected nonoptional, received undefined at children").
// The recording runs the functions the build runs for its page map, from nextra's published dist/:
// findMetaAndPageFilePaths and convertToPageMap (which files are pages, at which route),
// normalizePageMap (order, titles) and normalizePages (breadcrumb, sidebar). As the build's loader
// does, each `_meta` file is imported and run (TypeScript compiled by `typescript`); a page's
// frontMatter is its YAML front matter with `title` defaulting to its first `#` heading, as
// compile-metadata gives it.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const [fixture, nodeModules, buildLog] = process.argv.slice(2).map(p => path.resolve(p))
const load = rel => import(pathToFileURL(path.join(nodeModules, rel)).href)
const { findMetaAndPageFilePaths } = await load('nextra/dist/server/page-map/find-meta-and-page-file-paths.js')
const { convertToPageMap } = await load('nextra/dist/server/page-map/to-page-map.js')
const { normalizePageMap } = await load('nextra/dist/server/page-map/normalize.js')
const { normalizePages } = await load('nextra/dist/client/normalize-pages.js')
const ts = (await load('typescript/lib/typescript.js')).default
const YAML = await load('yaml/dist/index.js')
const versions = Object.fromEntries(['nextra', 'next', 'typescript'].map(name =>
  [name, JSON.parse(fs.readFileSync(path.join(nodeModules, name, 'package.json'), 'utf8')).version]))

const appDir = fs.existsSync(path.join(fixture, 'src/app')) ? 'src/app' : 'app'
const contentDir = fs.existsSync(path.join(fixture, 'src/content')) ? 'src/content' : 'content'
const filePaths = await findMetaAndPageFilePaths({ dir: path.join(fixture, appDir), cwd: fixture, contentDir })
const { pageMap } = convertToPageMap({ filePaths })
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'nextra-meta-'))

async function metaOf(file) {
  const text = fs.readFileSync(path.join(fixture, file), 'utf8')
  const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ESNext, jsx: ts.JsxEmit.React } }).outputText
  const out = path.join(scratch, file.replaceAll('/', '__') + '.mjs')
  fs.writeFileSync(out, js)
  return (await import(pathToFileURL(out).href)).default
}

function frontMatterOf(file) {
  const text = fs.readFileSync(path.join(fixture, file), 'utf8')
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text)
  const data = match ? YAML.parse(match[1]) || {} : {}
  const heading = /^# (.+)$/m.exec(match ? text.slice(match[0].length) : text)
  return { ...data, title: data.title ?? heading?.[1], filePath: file }
}

async function resolve(items) {
  const out = []
  for (const item of items) {
    if (item.__metaPath) out.push({ data: await metaOf(item.__metaPath) })
    else if (item.children) out.push({ ...item, children: await resolve(item.children) })
    else {
      const { __pagePath, ...rest } = item
      out.push({ ...rest, frontMatter: frontMatterOf(__pagePath) })
    }
  }
  return out
}

const normalized = normalizePageMap(await resolve(pageMap))
const pages = {}
const order = [] // the normalized page map's pages, depth first: the order of its sidebar, hidden ones too
function walk(items) {
  for (const item of items) {
    if (item.frontMatter) {
      pages[item.frontMatter.filePath] = item
      order.push(item.route)
    }
    if (item.children) walk(item.children)
  }
}
walk(normalized)
// The routes `next build` prerenders: the HTML files its static export wrote (`out/x/y.html`: /x/y),
// or, given its log, as the log lists them (`\t/app-path/page: /route`, with --debug-prerender).
function htmlRoutes(dir, prefix = '') {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => entry.isDirectory()
    ? (entry.name === '_next' ? [] : htmlRoutes(path.join(dir, entry.name), `${prefix}/${entry.name}`))
    : entry.name.endsWith('.html') && entry.name !== '404.html'
      ? [entry.name === 'index.html' && !prefix ? '/' : `${prefix}/${entry.name.slice(0, -'.html'.length)}`] : [])
}
const built = !buildLog ? [] : fs.statSync(buildLog).isDirectory() ? htmlRoutes(buildLog)
  : [...fs.readFileSync(buildLog, 'utf8').matchAll(/^\t\S+: (\/\S*)$/gm)].map(m => m[1])
const recorded = { versions, files: filePaths, next_build_routes: [...new Set(built)].sort(), order, pages: {} }
for (const [file, item] of Object.entries(pages)) {
  const { activePath, flatDocsDirectories, activeType } = normalizePages({ list: normalized, route: item.route })
  recorded.pages[file] = {
    route: item.route,
    title: item.frontMatter.title ?? null,
    searchable: item.frontMatter.searchable !== false,
    type: activeType,
    breadcrumb: activePath.map(entry => entry.title),
    sidebar: flatDocsDirectories.map(entry => entry.route),
  }
}
fs.rmSync(scratch, { recursive: true })
process.stdout.write(JSON.stringify(recorded, null, 1) + '\n')
