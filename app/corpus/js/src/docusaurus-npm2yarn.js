// @docusaurus/remark-plugin-npm2yarn (3.10.2, lib/index.js), which a Docusaurus site adds to a docs,
// blog or pages plugin's `remarkPlugins`: a ```` ```bash npm2yarn ```` fence (its meta exactly
// `npm2yarn`) becomes Tabs of the npm command and its conversions, each a TabItem labelled as the
// plugin labels it, the command converted by npm-to-yarn, the package the plugin converts with
// (recorded: tests/data/docusaurus-npm2yarn.shown.json). `converters` are the names the site's
// config gives, or the plugin's default (site_docusaurus_instance.py reads them); a custom
// converter (a function) is code docschat does not run: the config reader leaves it out.
import npmToYarn from 'npm-to-yarn'

const LABELS = {yarn: 'Yarn', bun: 'Bun'}

function tabItem(code, node, value, label) {
  return {
    type: 'mdxJsxFlowElement',
    name: 'TabItem',
    attributes: [{type: 'mdxJsxAttribute', name: 'value', value},
      ...(label ? [{type: 'mdxJsxAttribute', name: 'label', value: label}] : [])],
    children: [{type: node.type, lang: node.lang, value: code}],
  }
}

function tabs(node, converters) {
  const items = [tabItem(node.value, node, 'npm')]
  for (const converter of converters) {
    items.push(tabItem(npmToYarn(node.value, converter), node, converter, LABELS[converter] || converter))
  }
  return {type: 'mdxJsxFlowElement', name: 'Tabs', attributes: [], children: items}
}

// Every `npm2yarn` fence of the tree, at any depth, replaced as the plugin's visit does.
export function npm2yarn(tree, converters) {
  const stack = [tree]
  while (stack.length) {
    const node = stack.pop()
    if (!Array.isArray(node.children)) continue
    node.children = node.children.map((child) =>
      child.type === 'code' && child.meta === 'npm2yarn' ? tabs(child, converters) : child)
    stack.push(...node.children)
  }
}
