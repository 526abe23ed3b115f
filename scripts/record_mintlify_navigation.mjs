// Records which pages a Mintlify docs.json's navigation lists and the breadcrumbs each page shows,
// by @mintlify/common's own getAllPathsInDocsNav and generatePathToBreadcrumbsMapForDocsConfig,
// after @mintlify/validation's validateDocsConfig accepts the config (a shape it refuses is not a
// site Mintlify builds). tests/test_site_mintlify_shapes.py compares docschat's pages and places
// with the JSON printed, committed as tests/data/site-nav/mintlify-shapes.navigation.json.
//
//   mkdir /tmp/mint && cd /tmp/mint && npm install @mintlify/common@1.0.1183
//   node scripts/record_mintlify_navigation.mjs /tmp/mint/node_modules tests/data/site-nav/mintlify-shapes \
//     > tests/data/site-nav/mintlify-shapes.navigation.json
import {createRequire} from 'node:module'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'

const [nodeModules, site] = process.argv.slice(2)
const require = createRequire(join(nodeModules, 'noop.js'))
const load = async (name) => import(pathToFileURL(require.resolve(name)).href)
const common = await load('@mintlify/common')
const validation = await load('@mintlify/validation')
const version = (name) => JSON.parse(readFileSync(join(nodeModules, ...name.split('/'), 'package.json'), 'utf8')).version

const config = JSON.parse(readFileSync(join(site, 'docs.json'), 'utf8'))
const checked = validation.validateDocsConfig(config)
if (!checked.success) {
  console.error(JSON.stringify(checked.error.issues, null, 1))
  process.exit(1)
}
const pages = common.getAllPathsInDocsNav(checked.data.navigation)
const breadcrumbs = Object.fromEntries(common.generatePathToBreadcrumbsMapForDocsConfig(checked.data.navigation))
console.log(JSON.stringify({
  '@mintlify/common': version('@mintlify/common'), '@mintlify/validation': version('@mintlify/validation'),
  pages, breadcrumbs,
}, null, 1))
