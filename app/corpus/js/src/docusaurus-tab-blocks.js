// docusaurus-remark-plugin-tab-blocks (4.0.0, index.js), which a Docusaurus site adds to a content
// plugin's `remarkPlugins` (Jest's docs): a run of fences whose meta says `tab` (` ```js tab `,
// ` ```ts tab={"span":2} title="x.ts" `) becomes Tabs, one TabItem per fence (or per `span`
// fences), labelled by its `label`, else by the site's `labels` for its language (js JavaScript,
// ts TypeScript by default), else none (the Tabs then show its language, its value). `labels` are
// [language, label] pairs, the plugin's defaults then the config's (site_docusaurus_instance.py).
// Recorded: tests/data/docusaurus-tab-blocks.shown.json. The functions below are the plugin's.

function parseMeta(nodeMeta) {
  const parsedMeta = {span: 1}
  const tabTag = nodeMeta.match(/tab(={.+})?/g)
  if (tabTag == null) return null
  const tabMeta = tabTag[0].split('=')[1]
  if (tabMeta == null) return parsedMeta
  // Not JSON (`tab={x}`, a `=` inside): the plugin throws and the site does not build; so here the
  // page is not read (the reader reports the error).
  return {...parsedMeta, ...JSON.parse(tabMeta)}
}

function createTabs(tabNodes, labels) {
  const children = tabNodes.map(([nodes, meta]) => {
    const lang = nodes[0].lang
    const label = meta.label ?? labels.get(lang)
    const value = meta.label?.toLowerCase().replace(' ', '-') ?? lang
    const attributes = [{name: 'value', type: 'mdxJsxAttribute', value}]
    if (label != null) attributes.push({name: 'label', type: 'mdxJsxAttribute', value: label})
    return {attributes, children: nodes, name: 'TabItem', type: 'mdxJsxFlowElement'}
  })
  // `groupId` (sync) changes which tab opens first, not what the panels hold.
  return {attributes: [], children, name: 'Tabs', type: 'mdxJsxFlowElement'}
}

function collectTabNodes(parent, index) {
  let node = parent.children[index]
  const tabNodes = []
  do {
    if (node && node.type === 'code' && typeof node.meta === 'string') {
      const meta = parseMeta(node.meta)
      if (meta == null) break
      const spanItems = []
      while (spanItems.length < meta.span && node && node.type === 'code') {
        spanItems.push(node)
        index++
        node = parent.children[index]
      }
      // A span under 1 takes no fence and the plugin's loop never ends (the build never does).
      if (!spanItems.length) throw new Error(`a tab block's span of ${JSON.stringify(meta.span)}: the site never builds`)
      tabNodes.push([spanItems, meta])
    } else {
      break
    }
  } while (index <= parent.children.length)
  return tabNodes.length === 0 ? null : tabNodes
}

// The plugin's transformer: unist-util-visit's walk (a node, then what it holds, then the next
// sibling: a run replaced by its Tabs is not walked again).
export function tabBlocks(tree, pairs) {
  const labels = new Map([['js', 'JavaScript'], ['ts', 'TypeScript'], ...pairs])
  const walk = (parent) => {
    for (let index = 0; index < parent.children.length; index++) {
      const node = parent.children[index]
      if (node.type === 'code') {
        const tabNodes = collectTabNodes(parent, index)
        if (tabNodes == null) continue
        const replaced = tabNodes.reduce((count, [nodes]) => count + nodes.length, 0)
        parent.children.splice(index, replaced, createTabs(tabNodes, labels))
      } else if (Array.isArray(node.children)) {
        walk(node)
      }
    }
  }
  walk(tree)
}
