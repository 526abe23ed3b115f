// Records the page a reader of a Mintlify site lands on, by @mintlify/common's own
// getFirstPageFromNavigation (which orders `languages` and `versions` by
// prioritizeDefaultDivisionItem: the item marked `default`, else the first), for the docs.json of
// each site folder given. The page a reader lands on is in the language and version docschat
// indexes (tests/test_site_languages_versions.py reads the JSON printed, committed as
// tests/data/site-nav/mintlify-languages.first-page.json).
//
//   mkdir /tmp/mint && cd /tmp/mint && npm install @mintlify/common@1.0.1183
//   node scripts/record_mintlify_default_division.mjs /tmp/mint/node_modules tests/data/site-nav/mintlify-languages
//
// The navigation is decorated as Mintlify's build decorates it before this function reads it: a
// page path becomes a page object with its `href` (`/` + the path).
import {createRequire} from 'node:module'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'

const [nodeModules, ...sites] = process.argv.slice(2)
const require = createRequire(join(nodeModules, 'noop.js'))
const common = await import(pathToFileURL(require.resolve('@mintlify/common')).href)
const version = JSON.parse(readFileSync(join(nodeModules, '@mintlify', 'common', 'package.json'), 'utf8')).version

const decorate = (node) => {
  if (typeof node === 'string') return {href: '/' + node, title: node}
  if (Array.isArray(node)) return node.map(decorate)
  if (node && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, key === 'root' && typeof value === 'string'
      ? {href: '/' + value, title: value} : decorate(value)]))
  }
  return node
}
const first = {}
for (const site of sites) {
  const config = JSON.parse(readFileSync(join(site, 'docs.json'), 'utf8'))
  first[site] = common.getFirstPageFromNavigation(decorate(config.navigation))?.title ?? null  // its path
}
console.log(JSON.stringify({'@mintlify/common': version, first}))
