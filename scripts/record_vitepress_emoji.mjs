// Records the emoji shortcodes VitePress renders (`:tada:` → 🎉; `:)` → 😃 between spaces): the
// default definitions and shortcuts of @mdit/plugin-emoji, which VitePress bundles into its node
// build and enables unless `markdown.emoji` is false. The two tables are taken from the bundle
// (the object literals that start `{100:` and `{angry:`), then every entry is checked by rendering
// it with VitePress's own createMarkdownRenderer; the script fails if one renders otherwise.
// Writes app/corpus/vitepress_emoji.json, which app/corpus/vitepress_emoji.py reads, and how the
// shortcuts and some edges render: tests/data/vitepress-emoji.rendered.json.
//
//   mkdir /tmp/vp && cd /tmp/vp && npm install vitepress@2.0.0-alpha.19 vue
//   node scripts/record_vitepress_emoji.mjs /tmp/vp/node_modules
import {readFileSync, readdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import vm from 'node:vm'

const nodeModules = process.argv[2]
const vitepress = join(nodeModules, 'vitepress')
const version = JSON.parse(readFileSync(join(vitepress, 'package.json'), 'utf8')).version
const dist = join(vitepress, 'dist', 'node')
const bundle = readdirSync(dist).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(dist, f), 'utf8'))
  .find((text) => text.includes('{angry:['))

// The object literal starting at `start` (its `{`), quotes and template strings skipped.
const literal = (text, start) => {
  let depth = 0
  for (let i = start; i < text.length; i++) {
    const c = text[i]
    if (c === '`' || c === '"' || c === "'") {
      for (i++; text[i] !== c; i++) if (text[i] === '\\') i++
    } else if (c === '{') depth++
    else if (c === '}' && --depth === 0) return vm.runInNewContext(`(${text.slice(start, i + 1)})`)
  }
  throw new Error('unterminated literal')
}
const definitions = literal(bundle, bundle.indexOf('{100:'))
const shortcuts = literal(bundle, bundle.indexOf('{angry:['))

const {createMarkdownRenderer} = await import(pathToFileURL(join(dist, 'index.js')).href)
const md = await createMarkdownRenderer(process.cwd(), {}, '/')
let checked = 0
for (const [name, emoji] of Object.entries(definitions)) {
  const html = await md.renderAsync(`a :${name}: b`)
  if (html !== `<p>a ${emoji} b</p>\n`) throw new Error(`:${name}: renders ${html}`)
  checked++
}
// How the shortcuts and a few edges render, recorded as they are (`<\3` is not one: markdown-it
// splits the text at a backslash before the emoji rule runs), for tests/test_vitepress_emoji.py.
const edges = ['a:tada:b', 'x:)', ':) at the start', 'end :)', '`:tada:` in code', '[:tada:](https://x.test)',
  'https://x.test/:tada:', '**:tada:**', ':not_an_emoji:', ':TADA:', '\\:tada:', '(:+1:)', '8-)', 'a:-)b', '<https://x.test/:tada:>']
const cases = []
for (const text of [...Object.values(shortcuts).flat().map((s) => `a ${s} b`), ...edges]) {
  cases.push([text, await md.renderAsync(text)])
  checked++
}
writeFileSync(join(import.meta.dirname, '..', 'tests', 'data', 'vitepress-emoji.rendered.json'),
  JSON.stringify({vitepress: version, cases}, null, 1) + '\n')
const out = join(import.meta.dirname, '..', 'app', 'corpus', 'vitepress_emoji.json')
writeFileSync(out, JSON.stringify({vitepress: version, definitions, shortcuts}) + '\n')
console.log(`${out}: ${Object.keys(definitions).length} shortcodes, ${checked} renderings checked (VitePress ${version})`)
