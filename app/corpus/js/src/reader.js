// What a page shows, read by the parser its renderer uses and shown as a browser shows it.
//
// parse(text, options) reads Markdown with micromark (CommonMark + GFM; with `mdx`, the MDX 3
// syntax @mdx-js/mdx reads, acorn for its expressions and ESM; `math` and `directives` when the
// site renders them), turns it into HTML's tree (mdast-util-to-hast, raw HTML kept), parses that as
// a browser does (its HTML written out, then parsed by parse5), and takes each block's text by the innerText algorithm
// (hast-util-to-text). fromHtml(html) does the same from HTML (a MyST page, rendered in Python).
// Both return JSON: {blocks: [[kind, text, level], …], unknown: {name: count}} or {error}, `unknown`
// counting the components no rule here knows (COMPONENTS, CHILDREN_ONLY): compose reports them.
// moduleValue (module-value.js) reads a Docusaurus sidebars.js/.ts without running it.
// Bundled by scripts/build_page_reader.sh into ../reader.js, which app/corpus/reader.py runs in V8.
import {fromParse5} from 'hast-util-from-parse5'
import {toHtml} from 'hast-util-to-html'
import {toText} from 'hast-util-to-text'
import {fromMarkdown} from 'mdast-util-from-markdown'
import {gfmFromMarkdown} from 'mdast-util-gfm'
import {mathFromMarkdown} from 'mdast-util-math'
import {mdxFromMarkdown} from 'mdast-util-mdx'
import {directiveFromMarkdown} from 'mdast-util-directive'
import {defaultHandlers, toHast} from 'mdast-util-to-hast'
import {directive} from 'micromark-extension-directive'
import {parseFragment} from 'parse5'
import parseCss from 'css-tree/parser'
import {ident} from 'css-tree/utils'
import {createParser, render} from 'css-selector-parser'
import {selectAll} from 'hast-util-select'
import {find, html as htmlSchema} from 'property-information'
import {gfm} from 'micromark-extension-gfm'
import {math} from 'micromark-extension-math'
import {mdxjs} from 'micromark-extension-mdxjs'
import {comment, commentFromMarkdown} from '@slorber/remark-comment'
import {parseMetaString} from '@mintlify/common/parse-code-block-meta'
import {Parser as AcornParser} from 'acorn'
import acornJsx from 'acorn-jsx'
import {tsPlugin} from '@sveltejs/acorn-typescript'

export {moduleValue} from './module-value.js'
import {Renderer, Stop, Theme} from './component-render.js'
import {renderApart, renderedMdast} from './component-page.js'
import {DISPLAY_HIDES, hiding} from './css-hiding.js'
import {hiddenEverywhere, tailwindFrame} from './tailwind.js'
import {docusaurusCode} from './docusaurus-code.js'
import {npm2yarn} from './docusaurus-npm2yarn.js'
import {tabBlocks} from './docusaurus-tab-blocks.js'
import {mermaidDrawn, mintlifyCode} from './mintlify-code.js'
import {renderVue, selfClosed} from './vue-template.js'
import {SCOPE, SCOPE_PROPERTY, moduleSelector, scopedRule, scopedSelector} from './vue-scoped.js'

// The OpenAPI reader (src/openapi.js, @mintlify's packages: a quarter of the code, 0.02 s of a
// process's start) is a bundle of its own, ../reader-openapi.js, which app/corpus/reader.py
// loads before its first OpenAPI call: most sites have no spec.
const openapi = () => globalThis.docschatOpenapi

export function openapiSpec(key, text, file) {
  return openapi().openapiSpec(key, text, file)
}

// What a component shows of its attributes, before its children (children are always shown,
// unless `hide` says the site never shows them). Attributes not named here are never text.
const COMPONENTS = {
  // Mintlify and Docusaurus cards, tabs, steps, accordions: the title is the visible heading.
  Card: {shows: ['title', 'cta']}, // `cta`: the card's link label, under its text
  Tab: {shows: ['title', 'label']},
  TabItem: {shows: ['label']}, // Docusaurus
  Details: {shows: ['summary']}, // Docusaurus's @theme/Details: its summary, over its text
  Step: {shows: ['title']},
  Accordion: {shows: ['title', 'description']},
  Expandable: {shows: ['title']},
  Update: {shows: ['label', 'description', 'tags']}, // a changelog entry's date or version and tags, beside it
  // API fields: Mintlify prints the field's name, its type, "required" and "default: x".
  ParamField: {shows: ['query', 'path', 'body', 'header', 'param', 'type', 'required', 'deprecated', 'default']},
  ResponseField: {shows: ['pre', 'name', 'type', 'required', 'deprecated', 'default', 'post']}, // pre/post: labels around it
  Frame: {shows: ['caption']}, // the caption under an image
  Tile: {shows: ['title', 'description']},
  View: {shows: ['title']},
  Prompt: {shows: ['description']},
  'Tree.File': {shows: ['name']}, // a file tree's names are its text
  'Tree.Folder': {shows: ['name']},
  // A swatch's name and value, under it; in a table's row (`<Color variant="table">`) the swatch
  // alone, its name a hover label (@mintlify/components 1.0.19, recorded), and the row's title.
  'Color.Item': {shows: ['name', 'value'], hide: (attributes, parent) => parent && parent.name === 'Color.Row'},
  'Color.Row': {shows: ['title']},
  Icon: {shows: []}, // an icon's name is not text
  Tooltip: {shows: []}, // the tip shows on hover only: the words are its children
  // Mintlify's <Visibility for="agents"> is served to AI agents only, never shown on the page; so is
  // one whose `for` is missing or not "humans" (@mintlify/common's isHiddenFromHumans). A `for`
  // that is an expression Mintlify shows: here it is hidden too (its value is not read).
  Visibility: {shows: [], hide: (attributes) => attributes.for !== 'humans'},
  // Docusaurus and Mintlify render nothing of these (page-level machinery).
  Head: {hide: () => true},
  RequestExample: {shows: []},
  ResponseExample: {shows: []}
}

// Astro Starlight's components (`@astrojs/starlight/components`, 0.41.7: each one's .astro source),
// by what their HTML shows of their attributes (recorded: tests/data/site-nav/starlight.shown.json,
// scripts/record_starlight_site.py). `<Aside type title>` is a callout as `:::type[title]` is;
// `<Code code lang title>` a code block as a fence is; `<Icon label>` is an aria-label, no text.
const STARLIGHT_MODULE = '@astrojs/starlight/components'
const STARLIGHT_COMPONENTS = {
  // Badge, LinkCard and Icon render no `<slot>` (nor `Astro.slots`): their children show nothing.
  Badge: {shows: ['text'], childless: true}, // its `text`, never children
  Card: {shows: ['title']},
  LinkCard: {shows: ['title', 'description'], childless: true},
  TabItem: {shows: ['label']},
  Icon: {shows: [], childless: true},
  ...Object.fromEntries(['Tabs', 'Steps', 'CardGrid', 'FileTree', 'LinkButton'].map((name) => [name, {shows: []}]))
}
// Nextra's components (`nextra/components`, nextra 4.6.1's dist/client/components; `@theguild/components`
// re-exports them), by what they render of their props (recorded: tests/data/site-nav/nextra.shown.json,
// scripts/record_nextra_html.py). A Tabs names its tabs by its `items` (strings, or objects' `label`),
// its Tab's `title` is an HTML attribute; a Callout shows its `emoji` (text, its type's icon else); a
// Card its icon and title; a file tree its folders' and files' names (a closed folder's on a click).
const NEXTRA_MODULES = new Set(['nextra/components', '@theguild/components'])
const NEXTRA_COMPONENTS = {
  Tabs: {shows: ['items']},
  Callout: {shows: ['emoji']},
  Cards: {shows: []},
  'Cards.Card': {shows: ['icon', 'title']},
  'FileTree.Folder': {shows: ['name']},
  'FileTree.File': {shows: ['name']},
  ...Object.fromEntries(['Tabs.Tab', 'Steps', 'Bleed', 'FileTree', 'Table', 'Table.Tr', 'Table.Th', 'Table.Td',
    'Details', 'Summary', 'Collapse', 'Banner'].map((name) => [name, {shows: []}])),
  Head: {hide: () => true}
}

const STARLIGHT_ASIDES = new Set(['note', 'tip', 'caution', 'danger'])
const STARLIGHT_EXPORTS = [...Object.keys(STARLIGHT_COMPONENTS), 'Aside', 'Code']

// What Starlight's `<Aside>` or `<Code>` renders (undefined: another component).
function starlightElement(state, node, component, attributes) {
  if (component === 'Aside') {
    const type = STARLIGHT_ASIDES.has(attributes.type) ? attributes.type : 'note'
    const title = typeof attributes.title === 'string' ? attributes.title : ''
    return {type: 'element', tagName: 'div', properties: {dataCallout: type, dataTitle: title}, children: state.all(node)}
  }
  if (component !== 'Code') return undefined
  // Expressive Code reads its `meta` as a fence's; a `title` prop wins; `frame="none"` shows no title.
  const meta = typeof attributes.meta === 'string' ? attributes.meta : ''
  const shown = attributes.frame === 'none' || EXPRESSIVE_CODE_NO_FRAME.test(meta) ? ''
    : typeof attributes.title === 'string' ? attributes.title.trim() : codeTitle(meta, 'starlight')
  const title = shown ? [{type: 'element', tagName: 'p', properties: {}, children: [textNode(shown)]}] : []
  // A `code` the reader cannot see (`code={imported}`) shows its title alone.
  if (typeof attributes.code !== 'string') return {type: 'element', tagName: 'div', properties: {}, children: title}
  const lang = typeof attributes.lang === 'string' ? attributes.lang : null
  return {type: 'element', tagName: 'div', properties: {}, children: [...title,
    defaultHandlers.code(state, {type: 'code', lang, meta: null, value: attributes.code.replace(/\n$/, '')})]}
}

// Components known to show their children and nothing of their attributes (the default): Mintlify's
// callouts, groups and layout, Docusaurus's tabs. A component in neither list is reported as
// unknown: what it shows is a guess (its children).
const CHILDREN_ONLY = new Set(['Note', 'Warning', 'Info', 'Tip', 'Check', 'Danger', 'Callout', 'CardGroup',
  'Columns', 'Column', 'CodeGroup', 'Steps', 'Tabs', 'AccordionGroup', 'Panel', 'Badge', 'Tree', 'Color', 'Fragment'])

// The components Mintlify renders (@mintlify/common 1.0.1183's allowedComponents, mdx/utils.js, its
// capitalized names). Its remarkMdxRemoveUnknownJsx replaces any other flow element the page does
// not bind (import, or define and export) by a comment, its children with it: "Component X does not
// exist". Its HTML tags are not read from it (a site's build may allow more).
const MINTLIFY_COMPONENTS = new Set(['ApiPlayground', 'Accordion', 'AccordionGroup', 'Badge', 'Callout', 'CodeGroup',
  'CodeBlock', 'Color', 'Color.Row', 'Color.Item', 'CustomCode', 'CustomComponent', 'DynamicCustomComponent', 'Danger',
  'Tile', 'Tree', 'Tree.Folder', 'Tree.File', 'FileTree', 'SnippetGroup', 'Panel', 'RequestExample', 'ResponseExample',
  'Param', 'ParamField', 'Prompt', 'Card', 'CardGroup', 'Columns', 'Column', 'Expandable', 'Frame', 'GitHub',
  'GitHub.Repo', 'Github', 'Github.Repo', 'Heading', 'Info', 'Icon', 'MDX', 'Link', 'MDXContentController',
  'ResponseField', 'Warning', 'Note', 'Tip', 'Check', 'Tabs', 'Tab', 'Tooltip', 'Latex', 'Step', 'Steps', 'Update',
  'ZoomImage', 'OptimizedVideo', 'Mermaid', 'Variation', 'Visibility', 'View'])

// The attribute labels Mintlify writes before a value; others show the value alone.
const LABELS = {default: 'default: '}

const HTML_BLOCKS = new Set(['address', 'article', 'aside', 'blockquote', 'details', 'dialog', 'dd', 'div', 'dl',
  'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr',
  'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'ul', 'center', 'body', 'html'])

// A JSX attribute's value when written as a plain string (`a="x"`, `a={"x"}`, `a={'x'}`), true for a
// bare attribute, the object's entries for `style={{display: 'none'}}`; undefined otherwise. A spread
// of an object written in place (`{...{hidden: true}}`) gives its entries too. `hidden` is true
// unless written as a falsy literal (`hidden={false}`, `hidden=""`): React writes `hidden=""` for any
// other value, `hidden="false"` included, and a value it cannot see (`hidden={x}`) is read as hiding (fail closed).
// So is a spread the reader cannot see into (`{...props}`: it may hold `hidden` or a `style`), and a
// style's display, visibility or content-visibility that is not a literal (`style={s}`,
// `{display: a ? 'none' : 'block'}`, `{...s}`): the `css-jsx-hidden` probe.
function attributeValues(node) {
  const values = {}
  for (const attribute of node.attributes || []) {
    if (attribute.type === 'mdxJsxExpressionAttribute') {
      // Read as `({...x})`: an object whose one property is the spread.
      const spread = expressionOf(attribute.data && attribute.data.estree)
      const argument = spread && spread.type === 'ObjectExpression' && spread.properties.length === 1 &&
        spread.properties[0].type === 'SpreadElement' ? spread.properties[0].argument : null
      if (!argument || argument.type !== 'ObjectExpression') {
        values.hidden = true
        continue
      }
      const entries = objectEntries(argument)
      if (UNKNOWN_KEY in entries) {
        values.hidden = true // a key the reader cannot see may be `hidden`: read as hiding
        continue
      }
      Object.assign(values, entries)
      if ('hidden' in entries) values.hidden = entries.hidden === undefined || Boolean(entries.hidden)
      if ('style' in entries && (entries.style === undefined || typeof entries.style !== 'object')) values.style = UNSEEN_STYLE
      continue
    }
    if (attribute.type !== 'mdxJsxAttribute') continue
    const value = attribute.value
    if (value === null || value === undefined) values[attribute.name] = true
    else if (typeof value === 'string') values[attribute.name] = value
    else if (attribute.name === 'hidden') values.hidden = !falsy(expressionOf(value.data && value.data.estree))
    else values[attribute.name] = literal(value.data && value.data.estree, attribute.name === 'style')
  }
  if (typeof values.hidden === 'string') values.hidden = values.hidden !== '' // React omits a falsy value
  return values
}

// An attribute written as an array of plain strings (`tags={["New", "API"]}`): its strings, each a
// label the component shows; undefined otherwise.
// `labels`: an object's string `label` is its label too (Nextra's Tabs `items`).
function strings(node, name, labels = false) {
  const attribute = (node.attributes || []).find((a) => a.type === 'mdxJsxAttribute' && a.name === name)
  const value = attribute && attribute.value
  const expression = value && typeof value === 'object' ? expressionOf(value.data && value.data.estree) : undefined
  if (!expression || expression.type !== 'ArrayExpression') return undefined
  const items = expression.elements.map((e) => (e && e.type === 'Literal' && typeof e.value === 'string' ? e.value
    : labels && e && e.type === 'ObjectExpression' ? objectLabel(e) : null))
  return items.every((item) => item !== null) ? items : undefined
}

function objectLabel(object) {
  const label = object.properties.find((p) => p.type === 'Property' && !p.computed &&
    (p.key.name === 'label' || p.key.value === 'label'))
  return label && label.value.type === 'Literal' && typeof label.value.value === 'string' ? label.value.value : null
}

function expressionOf(estree) {
  const body = estree && estree.body
  return body && body.length === 1 && body[0].type === 'ExpressionStatement' ? body[0].expression : undefined
}

// `false`, `null`, `0`, `""`, `undefined`, `NaN` (and `-0`, ``` `` ```, `!true`): what React renders no
// attribute for. Any other expression is read as truthy (hiding, for `hidden`).
function falsy(expression) {
  if (!expression) return false
  if (expression.type === 'Literal') return !expression.value
  if (expression.type === 'UnaryExpression' && expression.operator === '!') {
    const value = jsonValue(expression.argument)
    return value !== undefined && Boolean(value)
  }
  const value = jsonValue(expression)
  if (value !== undefined) return !value
  return expression.type === 'Identifier' && (expression.name === 'undefined' || expression.name === 'NaN')
}

// A style the reader cannot see into: read as hiding (`var()` is: declarationsOf, usesVariable).
const UNSEEN = 'var(--docschat-unseen)'
const UNSEEN_STYLE = {display: UNSEEN, visibility: UNSEEN, contentVisibility: UNSEEN}

// An object literal's entries: string, number and boolean values, and template literals without
// placeholders; spreads of object literals in place. Others are undefined (with `style`, a value or
// spread the reader cannot see is UNSEEN where it may show or hide).
function objectEntries(expression, style = false) {
  const entries = {}
  for (const property of expression.properties) {
    if (property.type === 'SpreadElement') {
      if (property.argument.type === 'ObjectExpression') Object.assign(entries, objectEntries(property.argument, style))
      else if (style) Object.assign(entries, UNSEEN_STYLE)
      continue
    }
    const key = propertyKey(property)
    if (key === undefined) {
      // A key only running the page would tell (`[k]`, `[`hid${x}`]`): it may be `hidden` or
      // `display`, so the object may hide its element (the `css-jsx-spread-keys` probe).
      Object.assign(entries, style ? UNSEEN_STYLE : {[UNKNOWN_KEY]: true})
      continue
    }
    const value = property.value
    entries[String(key)] = value.type === 'Literal' ? value.value
      : value.type === 'TemplateLiteral' && value.expressions.length === 0 ? value.quasis.map((q) => q.value.cooked).join('')
        : value.type === 'ObjectExpression' ? objectEntries(value, style || String(key) === 'style')
          : style ? UNSEEN : undefined
  }
  return entries
}

// An object's property's key as JavaScript reads it: written (`hidden`, `"hidden"`, `0`), or
// computed from a literal (`["hidden"]`, `[`hidden`]`); undefined for one computed otherwise.
const UNKNOWN_KEY = '%unknown'
function propertyKey(property) {
  const key = property.key
  if (!key) return undefined
  if (!property.computed && key.type === 'Identifier') return key.name
  if (key.type === 'Literal') return String(key.value)
  if (key.type === 'TemplateLiteral' && key.expressions.length === 0) return key.quasis.map((q) => q.value.cooked).join('')
  return undefined
}

// The string a `{…}` renders when it is a plain literal (a string, a template without
// placeholders, a number); a style object's properties when `object`; undefined otherwise.
function literal(estree, object) {
  const expression = expressionOf(estree)
  if (!expression) return undefined
  if (expression.type === 'Literal' && (typeof expression.value === 'string' || typeof expression.value === 'number')) {
    return String(expression.value)
  }
  if (expression.type === 'TemplateLiteral' && expression.expressions.length === 0) {
    return expression.quasis.map((quasi) => quasi.value.cooked).join('')
  }
  if (object && expression.type === 'ObjectExpression') return objectEntries(expression, true)
  return object ? UNSEEN_STYLE : undefined // `style={s}`: not seen, read as hiding
}

// What a Mintlify field (`<ParamField>`, `<ResponseField>`: @mintlify/components 1.0.19's Property)
// shows of its `default`: the value's JSON when shorter than 50 characters (MAX_DEFAULT_VALUE_LENGTH),
// none for an object holding an object. So `default={false}` shows "false" (unkey's docs: 3 fields)
// and `default={{limit: 0}}` its JSON; a value known only when the page runs (`Date.now()`, a
// name) is not shown. A string shows without the quotes Mintlify puts around it (the same words).
// Recorded: tests/data/mintlify-field-defaults.shown.json (scripts/record_mintlify_field_defaults.py).
function fieldDefault(node) {
  const attribute = (node.attributes || []).find((a) => a.type === 'mdxJsxAttribute' && a.name === 'default')
  if (!attribute) return undefined
  const value = attribute.value === null || attribute.value === undefined ? true
    : typeof attribute.value === 'string' ? attribute.value
      : jsonValue(expressionOf(attribute.value.data && attribute.value.data.estree))
  if (value === undefined) return undefined
  if (value !== null && typeof value === 'object' && Object.values(value).some((v) => v !== null && typeof v === 'object')) {
    return undefined
  }
  const json = JSON.stringify(value)
  if (json.length >= 50) return undefined
  return typeof value === 'string' ? value : json
}

// A literal's value as JSON holds it (strings, numbers, booleans, null, and arrays and objects of
// them, written in place); undefined for anything else, which only running the page would tell.
function jsonValue(expression) {
  if (!expression) return undefined
  if (expression.type === 'Literal') {
    const value = expression.value
    return value === null || ['string', 'number', 'boolean'].includes(typeof value) ? value : undefined
  }
  if (expression.type === 'TemplateLiteral' && expression.expressions.length === 0) {
    return expression.quasis.map((quasi) => quasi.value.cooked).join('')
  }
  if (expression.type === 'UnaryExpression' && expression.operator === '-' && expression.argument.type === 'Literal' &&
      typeof expression.argument.value === 'number') {
    return -expression.argument.value
  }
  if (expression.type === 'ArrayExpression') {
    const items = expression.elements.map((element) => (element && element.type !== 'SpreadElement' ? jsonValue(element) : undefined))
    return items.every((item) => item !== undefined) ? items : undefined
  }
  if (expression.type === 'ObjectExpression') {
    const entries = {}
    for (const property of expression.properties) {
      if (property.type !== 'Property' || property.computed || property.kind !== 'init') return undefined
      const key = property.key.type === 'Identifier' ? property.key.name : property.key.value
      const value = jsonValue(property.value)
      if (value === undefined) return undefined
      entries[String(key)] = value
    }
    return entries
  }
  return undefined
}

// The properties that decide whether innerText shows an element, by their CSS and JSX names.
const SHOWING = {display: 'display', visibility: 'visibility', 'content-visibility': 'contentVisibility',
  contentvisibility: 'contentVisibility'}

// Declarations as [name, value, important]: CSS text read by css-tree (comments, strings and
// escapes as the browser's tokenizer reads them: `content: "/*"` opens no comment, `n\\one` is
// `none`), a value its keyword, lower case, when it is one identifier.
function declarationsOf(nodes) {
  const found = []
  for (const node of nodes) {
    if (node.type !== 'Declaration') continue
    const words = node.value.type === 'Value' ? node.value.children.toArray() : []
    const property = ident.decode(node.property)
    const value = words.length === 1 && words[0].type === 'Identifier' ? ident.decode(words[0].name) : ''
    found.push([property, usesVariable(words) ? HIDING_VALUE[SHOWING[property.trim().toLowerCase()]] || '' : value, Boolean(node.important),
      animationWords(words)])
  }
  return found
}

// The names a value may give an animation: its identifiers and strings.
function animationWords(words) {
  return words.filter((word) => word.type === 'Identifier' || word.type === 'String')
    .map((word) => word.type === 'String' ? word.value : ident.decode(word.name))
}

// A value taken from a custom property (`display: var(--x)`) is not computed here: the property
// may be set anywhere above the element (the `css-custom-properties` probe). Read as hiding:
// more hidden, never less (`var(--x, block)` that shows is hidden too). So is Vue's `v-bind(x)` in a
// VitePress page's `<style>`: its compiler makes it a custom property the page's script sets
// (`display: v-bind(d)`, the `probe/css2` page of tests/data/site-nav/vitepress).
const HIDING_VALUE = {display: 'none', visibility: 'hidden', contentVisibility: 'hidden'}
function usesVariable(words) {
  return words.some((word) => word.type === 'Function' && ['var', 'v-bind'].includes(word.name.toLowerCase()))
}

// What declarations say of showing their element, as the cascade applies them: {display,
// visibility, contentVisibility}, lower case, the last declaration of each winning (an `!important`
// one over plain ones), with `important` saying which were.
function cascade(declarations) {
  const found = {}
  const important = {}
  for (const [name, value, bang] of declarations) {
    const key = SHOWING[name.trim().toLowerCase()]
    if (!key || (important[key] && !bang)) continue
    important[key] = important[key] || bang
    found[key] = value.trim().toLowerCase()
  }
  return {found, important}
}

// What a style says of showing its element: an element's `style` (CSS text) or a JSX style object.
function styleOf(style) {
  if (typeof style === 'string') {
    return cascade(declarationsOf(parseCss(style, {context: 'declarationList', onParseError: () => {}}).children)).found
  }
  return style && typeof style === 'object' ? styleOf(reactStyleText(style)) : {}
}

// A JSX style object as React writes it into the page's HTML (react-dom/server: each name
// hyphenated at its capitals, `ms` as `-ms-`, a custom property's as written; each value trimmed;
// null, booleans and '' left out; `name:value` joined by `;`), which the browser then reads as CSS
// text: a value holding `;` ends its declaration and may open another, so `{color: 'red;display:
// none'}` hides (Chromium, the `css-jsx-style-text` probe), and `{Display: 'none'}` is `-display`,
// no property. React in the browser (a site's client-side navigation) sets each property apart and
// drops such a value: the page as first loaded is read, the safe reading. A value the reader cannot
// see is UNSEEN, a `var()`, read as hiding.
function reactStyleText(style) {
  return Object.entries(style).filter(([, value]) => value !== null && value !== undefined && typeof value !== 'boolean' &&
    typeof value !== 'object' && value !== '')
    .map(([name, value]) => `${name.startsWith('--') ? name : name.replace(/([A-Z])/g, '-$1').toLowerCase().replace(/^ms-/, '-ms-')}:${String(value).trim()}`)
    .join(';')
}

// Whether a style hides its element and all it holds (innerText skips it): `display: none` (or a
// column), `content-visibility: hidden`.
function styleHides(style) {
  const css = styleOf(style)
  return DISPLAY_HIDES.has(css.display) || css.contentVisibility === 'hidden'
}

// The `hidden` attribute is Chromium's presentational hint (`display: none`): an author's `display`
// in the element's style wins (`<div hidden style="display:block">` is shown), though not over
// `until-found`, whose `content-visibility: hidden` still hides (the `css-hidden-overridden` probes).
// A stylesheet's or a class's `display` is not read: hidden (more hidden, never less).
function hiddenAttribute(properties) {
  if (!properties.hidden) return false
  if (String(properties.hidden).trim().toLowerCase() === 'until-found') return true
  const display = styleOf(properties.style).display
  return !display || DISPLAY_HIDES.has(display)
}

// `visibility: hidden` (or `collapse`, as for any element but a table's rows) hides the element's
// own text; a descendant with `visibility: visible` shows again. undefined: inherited.
function styleVisible(style) {
  const visibility = styleOf(style).visibility
  return visibility === 'hidden' || visibility === 'collapse' ? false : visibility === 'visible' ? true : undefined
}

// Elements whose content the browser does not render: media and canvas fallback (shown only where
// the element is not supported), an iframe's, a closed dialog's, a gauge's, an SVG's description
// and metadata, a MathML annotation and phantom (space without ink) (Chromium's innerText leaves each out).
const NOT_RENDERED = new Set(['video', 'audio', 'canvas', 'iframe', 'progress', 'meter', 'datalist', 'noembed', 'noframes',
  'desc', 'metadata', 'annotation', 'annotation-xml', 'mphantom',
  // a fenced frame's and a geolocation button's fallback, MathML's space (the `css-elements-unrendered` probe)
  'fencedframe', 'geolocation', 'mspace',
  // SVG paint servers and filters: what they hold paints nothing (the `css-svg-mathml-unrendered` probe)
  'linearGradient', 'radialGradient', 'filter'])

// Where an inline component stood: a space between two words it would glue, nothing elsewhere
// (never before a closing mark: "<Tooltip>repository</Tooltip>.").
const SOFT = '\u0001'

function textNode(value) {
  return {type: 'text', value}
}

// Markdown that prepare() writes around shown text (a link's brackets and target, emphasis marks,
// a code span's backticks): marked, so that a heading's shown text can leave it out (unmarked).
function markNode(value) {
  return {type: 'text', value, data: {mark: true}}
}

// Components the page defines itself (`export const Secret = ({title}) => null`). MDX renders
// the page's own binding, whatever its name (a `Note` the page defines is not Mintlify's), and the
// reader does not run the page's code: the function's tree says what it may show. Its children
// are shown only where its code renders them whatever the props and state: reached (`children`,
// `props.children`, a spread of the props, `arguments`) in its one `return`, outside a condition
// (`x ? children : null`, `x && children`, an `if` that returns, a callback) but one on the
// children themselves. Otherwise they are hidden, as
// `({children}) => dev ? children : null` hides them on the published site (a loss where the
// condition holds there, or a click shows them). Rendered in one place, they are inside the HTML
// elements around it there (`wrapped`: `hidden`, a hiding style, a class a stylesheet hides). Of
// its attributes only `title` is shown, so too (what it renders itself is not read: a loss). A
// binding that is not a function (`memo(…)` and `forwardRef(…)` of one are, and a class's `render()`)
// or an alias of one (a re-export, a package's) stays a guess: children and title shown, as for any unknown.
const PAGE_MODULE = '%page' // no import's source: those start with `.`, `/` or `@site/`
// On a Mintlify page (`mintlify`), a component a snippet exports by name (`import { X } from
// "/snippets/x.mdx"`, whose ESM says `export const X = (props) => <Note>…</Note>`) is the
// snippet's ESM, rendered (component-render.js) on the element's props as Mintlify renders it; its
// Mintlify components (`Note`, `Icon`), which no module binds, by their rules. Recorded:
// tests/data/mintlify-pipecat.shown.json (scripts/record_mintlify_pipecat.py).
function localComponents(tree, modules, wanted, mintlify = false) {
  const local = new Map()
  // Where each component comes from (a module's export; `%page`: the page's own ESM, read as a
  // module), and an interpreter of the modules given, for a component that takes its children
  // apart (`apart`: component-render.js). A Markdown, CSS or JSON import is never evaluated.
  const origins = new Map()
  local.origins = origins
  const starlight = new Map() // a name the page imports from Starlight's components → the component
  local.starlight = starlight
  const nextra = new Map() // a name the page imports from Nextra's components → the component
  local.nextra = nextra
  const esm = {type: 'Program', body: (tree.children || []).filter((node) => node.type === 'mdxjsEsm')
    .flatMap((node) => (node.data && node.data.estree && node.data.estree.body) || [])}
  const snippetExports = (source) => mintlify && /\.mdx$/i.test(source)
  local.renderer = new Renderer((source) => {
    if (source === PAGE_MODULE) return esm
    if (/\.(?:mdx?|css|json)$/i.test(source) && !snippetExports(source)) return null
    if (!modules || !(source in modules)) {
      if (!wanted.includes(source)) wanted.push(source)
      return null
    }
    return snippetExports(source) ? mdxModule(modules[source]) : parsedModule(modules[source])
  }, mintlify ? (name) => (MINTLIFY_COMPONENTS.has(name) ? new Theme(name) : undefined) : null)
  for (const node of tree.children || []) {
    if (node.type !== 'mdxjsEsm') continue
    for (const statement of (node.data && node.data.estree && node.data.estree.body) || []) {
      declared(statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement,
        (name, value) => { local.set(name, value); origins.set(name, {source: PAGE_MODULE, key: name}) }, (name) => local.get(name))
      if (statement.type !== 'ImportDeclaration') continue
      // A component imported from a module of the site (`/snippets/x.jsx`, `@site/src/components/X`,
      // `./x`), read as the page's own when compose gives its text (`modules`: the import's source →
      // its text, null when the source holds no such file). A package's (`@theme/Tabs`) and a
      // Markdown snippet (pasted by compose) are not read.
      const source = String(statement.source.value)
      if (NEXTRA_MODULES.has(source)) {
        // Nextra's components, read by their own rules (NEXTRA_COMPONENTS); `Tabs.Tab` is its Tabs' Tab.
        for (const specifier of statement.specifiers) {
          if (specifier.type !== 'ImportSpecifier') continue
          const imported = specifier.imported.name ?? specifier.imported.value
          for (const component of Object.keys(NEXTRA_COMPONENTS)) {
            const [head, member] = component.split('.')
            if (head === imported) nextra.set(member ? `${specifier.local.name}.${member}` : specifier.local.name, component)
          }
        }
        continue
      }
      if (source === STARLIGHT_MODULE) {
        // Starlight's components, read by their own rules (STARLIGHT_COMPONENTS), never the page's own.
        for (const specifier of statement.specifiers) {
          if (specifier.type === 'ImportSpecifier') starlight.set(specifier.local.name, specifier.imported.name ?? specifier.imported.value)
          // `import * as SL from …`: `<SL.Badge>` is Starlight's Badge.
          if (specifier.type === 'ImportNamespaceSpecifier') {
            for (const component of STARLIGHT_EXPORTS) starlight.set(`${specifier.local.name}.${component}`, component)
          }
        }
        continue
      }
      const named = snippetExports(source) && statement.specifiers.some((specifier) => specifier.type === 'ImportSpecifier')
      if (!/^(?:\.{1,2}\/|\/|@site\/)/.test(source) || (/\.(?:mdx?|css|json)$/i.test(source) && !named)) continue
      if (!modules || !(source in modules)) {
        if (!wanted.includes(source)) wanted.push(source)
        continue
      }
      if (/\.astro$/i.test(source)) {
        // An Astro component (a Starlight page's own): its children show in the slots its template renders.
        const slots = astroSlots(modules[source])
        const binding = statement.specifiers.find((specifier) => specifier.type === 'ImportDefaultSpecifier')
        if (slots && binding) local.set(binding.local.name, {astroSlots: slots})
        continue
      }
      const exports = moduleExports(modules[source], snippetExports(source))
      for (const specifier of statement.specifiers) {
        if (named && specifier.type !== 'ImportSpecifier') continue // the snippet itself: pasted by compose
        const key = specifier.type === 'ImportDefaultSpecifier' ? 'default'
          : specifier.type === 'ImportSpecifier' ? specifier.imported.name ?? specifier.imported.value : null
        if (key !== null && exports.get(key)) local.set(specifier.local.name, exports.get(key))
        if (key !== null) origins.set(specifier.local.name, {source, key})
      }
    }
  }
  return local
}

// The page's layout: MDX wraps the page in its default export (`export default ({children}) =>
// …`), which shows the page only where its code renders its children (`reach`); null when it has
// none, or one the reader cannot see into (a call, a re-export: a guess, the page shown). The
// `components-local` probe: `export default () => null` shows nothing of the page.
function pageLayout(tree, local) {
  for (const node of tree.children || []) {
    if (node.type !== 'mdxjsEsm') continue
    for (const statement of (node.data && node.data.estree && node.data.estree.body) || []) {
      if (statement.type === 'ExportDefaultDeclaration') {
        const declaration = statement.declaration
        if (/^(?:Arrow)?Function/.test(declaration.type)) return reach(declaration)
        return declaration.type === 'Identifier' ? local.get(declaration.name) || null : null
      }
      for (const specifier of (statement.type === 'ExportNamedDeclaration' && !statement.source && statement.specifiers) || []) {
        if ((specifier.exported.name ?? specifier.exported.value) === 'default') return local.get(specifier.local.name) || null
      }
    }
  }
  return null
}

// Calls `set(name, component)` for each name a declaration binds: what a function component shows
// (reach), null for any other value (a guess). A name bound to another's component is that
// component (`export const Alias = Hidden`), and `memo(fn)`, `forwardRef(fn)` (or `React.…`) are fn.
function declared(statement, set, get = () => null) {
  if (!statement) return
  if (/^(?:Arrow)?Function/.test(statement.type) && statement.id) set(statement.id.name, reach(statement))
  else if (statement.type === 'ClassDeclaration' && statement.id) set(statement.id.name, classComponent(statement))
  else if (statement.type === 'VariableDeclaration') {
    for (const each of statement.declarations) {
      if (each.id.type === 'Identifier') set(each.id.name, componentOf(each.init, get))
    }
  }
}

function componentOf(value, get) {
  if (!value) return null
  if (/^(?:Arrow)?Function/.test(value.type)) return reach(value)
  if (value.type === 'ClassDeclaration' || value.type === 'ClassExpression') return classComponent(value)
  if (value.type === 'Identifier') return get(value.name) || null
  const callee = value.type === 'CallExpression' && value.callee
  const name = callee && (callee.type === 'Identifier' ? callee.name
    : callee.type === 'MemberExpression' && !callee.computed && callee.object.name === 'React' ? callee.property.name : '')
  return (name === 'memo' || name === 'forwardRef') && value.arguments.length ? componentOf(value.arguments[0], get) : null
}

// A class component (`class X extends React.Component { render() {…} }`): what its `render()`
// shows, its props read through `this.props` (null, a guess, for a class without one).
function classComponent(node) {
  const render = node.body.body.find((member) => member.type === 'MethodDefinition' && !member.static &&
    !member.computed && member.key.type === 'Identifier' && member.key.name === 'render')
  if (!render || !render.value.body) return null
  const props = {type: 'Identifier', name: 'this.props'} // a name no code can bind
  const replaced = (node) => {
    if (Array.isArray(node)) return node.map(replaced)
    if (!node || typeof node !== 'object' || typeof node.type !== 'string') return node
    if (node.type === 'MemberExpression' && !node.computed && node.object.type === 'ThisExpression' &&
      node.property.type === 'Identifier' && node.property.name === 'props') return props
    if (/Function|Class/.test(node.type) && node.type !== 'ArrowFunctionExpression') return node // its own `this`
    const copy = {}
    for (const [key, value] of Object.entries(node)) copy[key] = key === 'loc' || key === 'range' ? value : replaced(value)
    return copy
  }
  return reach({type: 'FunctionExpression', params: [props], body: replaced(render.value.body)})
}

// An MDX file's ESM (a Mintlify snippet's `export const X = …`) as one program; null when MDX
// refuses the file.
function mdxModule(text) {
  if (typeof text !== 'string') return null
  try {
    const {value, extensions, mdastExtensions} = syntax(text, {mdx: true})
    const body = fromMarkdown(value, {extensions, mdastExtensions}).children.filter((node) => node.type === 'mdxjsEsm')
      .flatMap((node) => (node.data && node.data.estree && node.data.estree.body) || [])
    return {type: 'Program', sourceType: 'module', body}
  } catch {
    return null
  }
}

// A module's exported components (name → what it shows; `default` for its default export), read
// by acorn with JSX (or, when that fails, with TypeScript too); none when it does not parse.
let moduleParsers = null
function parsedModule(text) {
  if (typeof text !== 'string') return null
  moduleParsers = moduleParsers || {js: AcornParser.extend(acornJsx()), ts: AcornParser.extend(tsPlugin({jsx: true}))}
  let program = null
  for (const parser of [moduleParsers.js, moduleParsers.ts]) { // a source may name a `.tsx` file without its suffix
    try {
      program = program || parser.parse(text, {ecmaVersion: 'latest', sourceType: 'module', locations: true})
    } catch {}
  }
  return program
}

function moduleExports(text, mdx = false) {
  const exports = new Map()
  const program = mdx ? mdxModule(text) : parsedModule(text)
  if (!program) return exports
  const top = new Map()
  for (const statement of program.body) {
    if (statement.type === 'ExportNamedDeclaration') {
      declared(statement.declaration, (name, value) => { top.set(name, value); exports.set(name, value) }, (name) => top.get(name))
    }
    else if (statement.type === 'ExportDefaultDeclaration' && statement.declaration.type !== 'Identifier') {
      exports.set('default', componentOf(statement.declaration, (name) => top.get(name)))
    } else declared(statement, (name, value) => top.set(name, value), (name) => top.get(name))
  }
  for (const statement of program.body) {
    if (statement.type === 'ExportNamedDeclaration' && !statement.declaration && !statement.source) {
      for (const specifier of statement.specifiers) exports.set(specifier.exported.name ?? specifier.exported.value, top.get(specifier.local.name) ?? null)
    } else if (statement.type === 'ExportDefaultDeclaration' && statement.declaration.type === 'Identifier') {
      exports.set('default', top.get(statement.declaration.name) ?? null)
    }
  }
  return exports
}

// The slots an Astro component's template renders (`<slot />` "default", `<slot name="x" />` "x"),
// null when it cannot be read: no file, a bound name (`name={…}`), or slots rendered by code
// (`Astro.slots.render`), whose children are then shown (a guess, as an unknown component's).
function astroSlots(text) {
  if (typeof text !== 'string' || /\bAstro\.slots\.render\b/.test(text)) return null
  const template = text.replace(/^\s*---[\s\S]*?\n---[ \t]*(?:\n|$)/, '').replace(/<!--[\s\S]*?-->/g, '')
  const slots = new Set()
  for (const [, attributes] of template.matchAll(/<slot(?=[\s/>])([^>]*)>/g)) {
    const named = attributes.match(/(?:^|\s)name\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`{}/]+)|(\{))/)
    if (named && named[4]) return null
    slots.add(named ? named[1] ?? named[2] ?? named[3] : 'default')
  }
  return slots
}

// What a function component's code shows of its props whatever they are: {children, names}.
function reach(fn) {
  const found = {children: false, names: new Set()}
  const props = fn.params[0]
  const bound = new Map() // a destructured prop's local name → the prop
  // A second parameter (forwardRef's `ref`) holds no props.
  if (props && props.type !== 'Identifier' && props.type !== 'ObjectPattern') return found
  if (props && props.type === 'ObjectPattern') {
    for (const property of props.properties) {
      const value = property.value && property.value.type === 'AssignmentPattern' ? property.value.left : property.value
      if (property.type === 'RestElement' && property.argument.type === 'Identifier') bound.set(property.argument.name, '...')
      else if (property.type === 'Property' && !property.computed && property.key.type === 'Identifier' && value && value.type === 'Identifier') {
        bound.set(value.name, property.key.name)
      }
    }
  }
  // A body of statements: its one `return` (or `throw`, outside the functions it defines), last,
  // renders whatever the state.
  let shown = fn.body
  if (fn.body.type === 'BlockStatement') {
    const last = fn.body.body[fn.body.body.length - 1]
    let exits = 0
    const count = (node) => {
      if (!node || typeof node.type !== 'string' || (node !== fn.body && /Function|Class/.test(node.type))) return
      if (node.type === 'ReturnStatement' || node.type === 'ThrowStatement') exits += 1
      for (const value of Object.values(node)) [].concat(value).forEach((item) => item && typeof item === 'object' && count(item))
    }
    count(fn.body)
    shown = last && last.type === 'ReturnStatement' && exits === 1 ? last.argument : null
  }
  const reached = (key) => {
    if (key === 'children' || key === '...') found.children = true
    else found.names.add(key)
  }
  // A test of the children themselves (`children ? <div>{children}</div> : null`, `children &&
  // …`) holds: the component is given children.
  const given = (node) => (node.type === 'Identifier' && (node.name === 'children' || bound.get(node.name) === 'children')) ||
    (node.type === 'MemberExpression' && !node.computed && node.property.name === 'children' &&
      props && props.type === 'Identifier' && node.object.type === 'Identifier' && node.object.name === props.name)
  const references = [] // each place the children are rendered: the JSX elements around it
  walkEstree(shown, null, (node, parent, around) => {
    const member = parent && parent.type === 'MemberExpression' && (parent.object === node || (parent.property === node && !parent.computed))
    if (given(node) && !member) references.push(around)
    if (node.type === 'Identifier' && (node.name === 'children' || node.name === 'arguments')) reached('children')
    else if (node.type === 'Identifier' && bound.has(node.name)) reached(bound.get(node.name))
    else if (props && props.type === 'Identifier' && node.type === 'Identifier' && node.name === props.name) {
      reached(parent && parent.type === 'MemberExpression' && parent.object === node && !parent.computed ? parent.property.name : '...')
    }
  }, given)
  // Rendered in one place, inside HTML elements (`<div hidden>{children}</div>`, a class the
  // site's stylesheet hides): the children are shown inside those elements (`wrapped`).
  if (found.children && references.length === 1) found.around = references[0].filter((element) => /^[a-z][a-z0-9-]*$/.test(jsxName(element)))
  // Takes its children apart (`React.Children.toArray(children)`, `Children.map(…)`): what it shows
  // of them depends on their props, read by evaluating it (component-render.js). Where that stops,
  // its children are a guess, shown only if it takes them apart whatever the props (`shownApart`:
  // not under a condition, as `open ? Children.map(…) : null` is, which hides them as before).
  const apart = (shownApart) => (node) => {
    const callee = node.type === 'CallExpression' && node.callee.type === 'MemberExpression' && node.callee.object
    if (callee && ((callee.type === 'Identifier' && callee.name === 'Children') ||
      (callee.type === 'MemberExpression' && !callee.computed && callee.property.name === 'Children'))) {
      found.apart = true
      if (shownApart) found.shownApart = true
    }
  }
  walkEstree(fn.body, null, apart(false))
  if (found.apart) walkEstree(fn.body, null, apart(true), given)
  return found
}

function jsxName(element) {
  const name = element.openingElement && element.openingElement.name
  return name && name.type === 'JSXIdentifier' ? name.name : ''
}

// The children of a component the page uses, inside the HTML elements its code renders them in
// (innermost last); null when one of them hides them (`hidden`, a literal style that hides). A
// class is kept, for the stylesheets to match; what the reader cannot see (a style or class from
// a variable, a spread: often the props handed on) is left out, as it was before (a guess, shown).
function wrapped(children, around) {
  for (const element of [...around].reverse()) {
    const properties = {}
    for (const attribute of element.openingElement.attributes) {
      if (attribute.type !== 'JSXAttribute' || attribute.name.type !== 'JSXIdentifier') continue
      const key = attribute.name.name
      const value = attribute.value
      const expression = value && value.type === 'JSXExpressionContainer' ? value.expression : null
      const program = expression && {type: 'Program', body: [{type: 'ExpressionStatement', expression}]}
      if (key === 'hidden' && !(expression && falsy(expression))) return null
      if (key === 'style' && expression && expression.type === 'ObjectExpression' && styleHides(objectEntries(expression, true))) return null
      const text = value === null ? true : value.type === 'Literal' ? String(value.value) : program ? literal(program, false) : undefined
      if (key === 'className' || key === 'class') {
        if (typeof text === 'string') properties.className = text.split(/\s+/).filter(Boolean)
      } else if (key !== 'style' && key !== 'hidden' && reactAttribute(key, text) !== undefined) properties[key] = reactAttribute(key, text)
    }
    children = [{type: 'element', tagName: jsxName(element), properties, children}]
  }
  return children
}

// Calls `visit(node, parent)` for every node under `node`; with `given` (a test that holds), not
// under what may not run or render: a branch of `?:` or the right of `&&`/`||`/`??` (but where
// `given` says the test holds), a function, a statement that branches or loops.
const CONDITIONAL = new Set(['IfStatement', 'SwitchStatement', 'ForStatement', 'ForInStatement',
  'ForOfStatement', 'WhileStatement', 'DoWhileStatement', 'TryStatement', 'FunctionExpression', 'ArrowFunctionExpression',
  'FunctionDeclaration', 'ClassDeclaration', 'ClassExpression'])
function walkEstree(node, parent, visit, given = null, around = []) {
  if (!node || typeof node.type !== 'string') return
  visit(node, parent, around)
  if (node.type === 'JSXElement') around = [...around, node]
  if (given && CONDITIONAL.has(node.type)) return
  const holds = given && (node.type === 'ConditionalExpression' || node.type === 'LogicalExpression') && given(node.test || node.left)
  for (const key of Object.keys(node)) {
    if (key === 'loc' || key === 'range' || key === 'comments') continue
    if (given && node.type === 'ConditionalExpression' && key !== 'test' && !(holds && key === 'consequent')) continue
    if (given && node.type === 'LogicalExpression' && key === 'right' && !(holds && node.operator === '&&')) continue
    const value = node[key]
    if (Array.isArray(value)) for (const item of value) walkEstree(item, node, visit, given, around)
    else if (value && typeof value === 'object' && typeof value.type === 'string') walkEstree(value, node, visit, given, around)
  }
}

// Where Docusaurus's theme components (theme-classic 3.10.2) put their `className`, so that a
// class the site's stylesheet hides hides there (recorded: tests/data/docusaurus-admonitions,
// classes/classes.mdx): on the element holding all an Admonition or Details shows; on a TabItem's
// panel (its label stands in the tab list); on a Tabs' list of labels. Another component's class
// is not applied (where it lands is not known).
const DOCUSAURUS_CLASSED = {Admonition: 'whole', Details: 'whole', TabItem: 'children', Tabs: 'labels'}
const TAB_LABELS = new WeakSet() // the label elements TabItems made, for their Tabs' class

function withClass(element, classes) {
  const properties = element.properties || {}
  return {...element, properties: {...properties, className: [...(properties.className || []), ...classes]}}
}

// A page attribute's value as React hands it to a component: a string, true for a bare one, a
// literal `{…}` (a string or number); undefined for one the reader cannot see.
function attributeValue(attribute) {
  if (attribute.value === null || attribute.value === undefined) return true
  if (typeof attribute.value === 'string') return attribute.value
  return literal(attribute.value.data && attribute.value.data.estree, false)
}

// An attribute's value for a module's component on Mintlify: a literal, else the expression
// evaluated in the page's ESM (`rows={methods()}`, `methods` imported from the snippet module) by
// the interpreter; undefined where it stops (reading the prop then stops the render).
function pageValue(attribute, renderer) {
  const value = attributeValue(attribute)
  const body = value === undefined && attribute.value && attribute.value.data && attribute.value.data.estree
    ? attribute.value.data.estree.body : []
  if (body.length !== 1 || body[0].type !== 'ExpressionStatement') return value
  try {
    renderer.steps = 0
    return renderer.evaluate(body[0].expression, renderer.scope(PAGE_MODULE))
  } catch (error) {
    if (error instanceof Stop || error instanceof TypeError || error instanceof RangeError) return undefined
    throw error
  }
}

// Mintlify's `<CodeBlock language filename>{`…`}</CodeBlock>` (@mintlify/components, documented in
// its create/code page) shows its string child as a fenced block of that language does, the
// `filename` above it. Recorded: tests/data/mintlify-codeblock.shown.json
// (scripts/record_mintlify_codeblock.py). Children that are not one literal string: undefined, read
// as before (its children, the component reported unknown).
function codeBlock(state, node, attributes) {
  const children = (node.children || []).filter((child) => !(child.type === 'text' && !child.value.trim()))
  const child = children.length === 1 ? children[0] : null
  const value = child && (child.type === 'mdxFlowExpression' || child.type === 'mdxTextExpression')
    ? literal(child.data && child.data.estree, false) : undefined
  if (typeof value !== 'string' || node.type !== 'mdxJsxFlowElement') return undefined
  const language = typeof attributes.language === 'string' ? attributes.language : null
  const pre = defaultHandlers.code(state, {type: 'code', lang: language, meta: null, value: value.replace(/\n$/, '')})
  const title = typeof attributes.filename === 'string' ? attributes.filename.trim() : ''
  return title ? [{type: 'element', tagName: 'p', properties: {}, children: [textNode(title)]}, pre] : pre
}

// `bound`: on a Mintlify page, the names its ESM binds; a flow element of a capitalized name it does
// not bind nor Mintlify knows shows nothing (MINTLIFY_COMPONENTS).
function jsxHandler(counts, local, docusaurus = false, bound = null) {
  return (state, node, parent) => {
    // An element a component of the site rendered (component-render.js): its attributes as given.
    const rendered = Boolean(node.data && node.data.rendered)
    const attributes = rendered ? {...node.data.attributes} : attributeValues(node)
    if (local.astro && !rendered && ('set:html' in attributes || 'set:text' in attributes)) {
      // Astro's directives: the element (a `<Fragment>`: none) holds that HTML, or that text, in
      // place of its children; a value the reader cannot see shows nothing.
      const html = attributes['set:html']
      const text = attributes['set:text']
      node = {...node, children: typeof html === 'string' ? [{type: 'html', value: html}]
        : typeof text === 'string' ? [{type: 'text', value: text}] : []}
    }
    // Mintlify's `<Link href>` (one of its allowedComponents) and Docusaurus's `<Link to>`
    // (@docusaurus/Link) render an anchor: read as `<a href>`, the link target kept.
    const link = node.name === 'Link' && (rendered || !local.has('Link'))
    if (link && attributes.href === undefined && typeof attributes.to === 'string') attributes.href = attributes.to
    const name = link ? 'a' : node.name
    const flow = node.type === 'mdxJsxFlowElement'
    let own = name && !rendered ? local.get(name) : undefined // the page's own binding
    const origin = own && local.origins ? local.origins.get(name) : undefined
    const snippet = Boolean(origin && /\.mdx$/i.test(origin.source)) // a Mintlify snippet's export: rendered
    // On Mintlify, a React component of a module (`import {Table} from "/snippets/table.jsx"`) is
    // rendered too, on the props the reader can see; where it cannot, what the component renders is
    // not indexed (its children only where its code reaches them, as before) and it is reported.
    const module = Boolean(bound && origin && origin.source !== PAGE_MODULE && !snippet && !/\.(?:md|css|json)$/i.test(origin.source))
    let unread = false
    if (own && origin && (own.apart || snippet || module)) {
      // Takes its children apart: what it renders of them, evaluated (not counted: read as the site
      // shows it); where the evaluation stops, a guess below (its children shown, counted).
      const tree = renderApart(node, local.origins.get(name), local.renderer, module ? (a) => pageValue(a, local.renderer) : attributeValue,
        (child) => (local.origins.has(child) ? local.renderer.exported(local.origins.get(child).source, local.origins.get(child).key)
          : local.has(child) ? undefined : new Theme(child)))
      if (tree) return {type: 'element', tagName: flow ? 'div' : 'span', properties: {}, children: state.all({type: node.type, children: tree})}
      if (snippet) own = undefined // not rendered: a guess, reported as a component docschat does not know
      unread = module
    }
    if (own && own.astroSlots) {
      // Astro renders a child with `slot="name"` in that named slot, any other in the default one;
      // a slot the template lacks shows nothing of what it is given.
      const taken = (node.children || []).filter((child) => {
        const slot = (child.attributes || []).find((attribute) => attribute.type === 'mdxJsxAttribute' && attribute.name === 'slot')
        return own.astroSlots.has(slot ? (typeof slot.value === 'string' ? slot.value : '') : 'default')
      })
      return {type: 'element', tagName: flow ? 'div' : 'span', properties: {}, children: state.all({...node, children: taken})}
    }
    const starlight = name && !rendered && local.starlight ? local.starlight.get(name) : undefined
    const nextra = name && !rendered && local.nextra ? local.nextra.get(name) : undefined
    const rule = starlight ? STARLIGHT_COMPONENTS[starlight] : nextra ? NEXTRA_COMPONENTS[nextra]
      : name && (rendered || !local.has(name)) ? COMPONENTS[name] : undefined
    const code = starlight ? starlightElement(state, node, starlight, attributes)
      : name === 'CodeBlock' && (rendered || !local.has(name)) ? codeBlock(state, node, attributes) : undefined
    // A site component read as hiding its children: counted apart (compose says their text is not
    // indexed). One that takes them apart, not evaluated, is a guess: its children shown, each
    // marker among them (`({children}) => null`, whose props it reads) by its own children.
    const hides = own && !own.children && !own.shownApart
    if (hides) {
      if ((node.children || []).length) counts.hiding[name] = (counts.hiding[name] || 0) + 1
      else if (unread) counts[name] = (counts[name] || 0) + 1 // what it renders of its props: not read
    } else if (name && (/^[A-Z]/.test(name) || name.includes('.')) && !rule && !code && ((!rendered && local.has(name)) || !CHILDREN_ONLY.has(name))) {
      counts[name] = (counts[name] || 0) + 1
    }
    // Counted still: compose reports it, as Mintlify does ("Component X does not exist").
    if (bound && /^[A-Z]/.test(name || '') && !MINTLIFY_COMPONENTS.has(name) && !bound.has(name.split('.')[0])) return undefined
    if (rule && rule.hide && rule.hide(attributes, parent)) return undefined
    // An HTML element's `hidden` and style are written (React writes `hidden=""`) and read in the
    // HTML (prepare: a `display` in its style wins over `hidden`; a `<select>` lists every option),
    // after the stylesheets it holds are applied: Chromium applies a `<style>` a hidden element holds.
    if (!/^[a-z]/.test(name || '') && (attributes.hidden === true || styleHides(attributes.style))) return undefined
    if (code) return code
    if (hides && !own.names.has('title')) return undefined
    unseenStylesheet(node, name, attributes)
    if (docusaurus && name === 'Tabs' && !own) tabsValues(node)
    let children = hides || (rule && rule.childless) ? [] : state.all(own && own.shownApart ? {...node, children: (node.children || []).flatMap((child) => {
      const marker = child.name && local.get(child.name)
      return marker && !marker.children && !marker.shownApart ? child.children : [child]
    })} : node)
    if (own && own.around && own.around.length && (children = wrapped(children, own.around)) === null) return undefined
    // React writes a `<style>`'s string children as its CSS text: no paragraph around a
    // `{`…`}` template literal (expressionHandler's), which CSS would read as a selector.
    if (name === 'style') children = [textNode(children.map(toString).join(''))]
    if (!name) return {type: 'element', tagName: flow ? 'div' : 'span', properties: {}, children} // a fragment `<>…</>`
    if (/^[a-z][a-z0-9-]*$/.test(name)) {
      const inner = innerHtml(node, attributes)
      if (inner !== undefined) children = [{type: 'raw', value: inner}]
      // `<div children="x" />`: React renders the prop where no children are written.
      else if (!(node.children || []).length && ['string', 'number'].includes(typeof attributes.children)) {
        children = [textNode(String(attributes.children))]
      }
      // A class the reader cannot see (`className={c}`) may be one a stylesheet hides (Tailwind's
      // `hidden`, the site's): read as hiding, as a style it cannot see is.
      if (['class', 'className'].some((key) => key in attributes && typeof attributes[key] !== 'string')) return undefined
      // An HTML element: the browser shows it as such (a table, a line break, an image's alt text).
      const properties = {}
      // Its other attributes too (`data-x`, `title`): never text, but a page's stylesheet may hide
      // the element by them (applyStylesheets), as React writes them (`reactAttribute`).
      const given = {...attributes, ...literalAttributes(node)}
      // React writes an input's `defaultChecked` as `checked` and its `defaultValue` as `value`
      // (react-dom/server's pushInput): a stylesheet's `:checked` or `[value]` matches them.
      for (const [from, to] of name === 'input' ? [['defaultChecked', 'checked'], ['defaultValue', 'value']] : []) {
        if (from in given && !(to in given)) given[to] = given[from]
        delete given[from]
      }
      for (const [key, value] of Object.entries(given)) {
        const written = key === 'style' || key === 'hidden' || key === 'class' || key === 'className' || REACT_RESERVED.has(key)
          ? undefined : reactAttribute(key, value)
        if (written !== undefined) properties[key] = written
      }
      // Its classes as a list, as hast holds them: hast-util-select tests a string `className` by
      // substring (`.q` matched `className="q-z"`, `.hidden` an `overflow-hidden`).
      const classes = [attributes.className, attributes.class].filter((value) => typeof value === 'string')
      if (classes.length) properties.className = classes.join(' ').split(/\s+/).filter(Boolean)
      // Its style as React writes it: its visibility, and its animation, which keyframes of a
      // stylesheet may say hide (applyStylesheets).
      const style = attributes.style && typeof attributes.style === 'object' ? reactStyleText(attributes.style) : attributes.style
      if (typeof style === 'string' && style.trim()) properties.style = style
      if (attributes.hidden === true) properties.hidden = true
      return {type: 'element', tagName: name, properties, children}
    }
    const shown = [] // strings, and the nodes of an attribute written as JSX
    for (const key of (rule && rule.shows) || (own && !own.names.has('title') ? [] : ['title'])) {
      const value = key === 'default' ? fieldDefault(node) : docusaurus && name === 'TabItem' && key === 'label' ? tabName(node, attributes)
        : nextra === 'Tabs' ? strings(node, key, true) || []
        : attributes[key] === undefined ? strings(node, key) : attributes[key]
      if (value === true && (key === 'required' || key === 'deprecated')) shown.push(key)
      else if (typeof value === 'string' && value.trim()) shown.push((LABELS[key] || '') + value)
      else if (Array.isArray(value)) shown.push(...value.filter((item) => item.trim()))
      else if (value === undefined && !rendered && local.renderer) {
        const nodes = jsxAttributeShown(state, node, key, local.renderer)
        if (nodes.length) shown.push(nodes)
      }
    }
    const tag = flow ? 'div' : 'span'
    const heading = shown.length ? [{type: 'element', tagName: tag, properties: {},
      children: shown.flatMap((part, i) => [...(i ? [textNode(' ')] : []), ...(typeof part === 'string' ? [textNode(part)] : part)])}] : []
    if (name === 'TabItem') heading.forEach((label) => TAB_LABELS.add(label))
    // A Mintlify component puts its `className` on the element holding all it shows (@mintlify/
    // components 1.0.19's Callout and Card do; a component that drops it would show more): read
    // so, the safe reading (the `guides/classes` page of tests/data/site-nav/mintlify).
    const classed = own ? undefined : docusaurus ? DOCUSAURUS_CLASSED[name] : bound && MINTLIFY_COMPONENTS.has(name) ? 'whole' : undefined
    if (classed && 'className' in attributes) {
      // A class the reader cannot see (`className={c}`) may be one the site hides: read as hiding.
      const classes = typeof attributes.className === 'string' ? attributes.className.split(/\s+/).filter(Boolean) : null
      if (classed === 'whole' && !classes) return undefined
      if (classed === 'children') children = classes ? [{type: 'element', tagName: tag, properties: {className: classes}, children}] : []
      if (classed === 'labels') {
        children = children.map((item) => (item.children && item.children.some((c) => TAB_LABELS.has(c))
          ? {...item, children: item.children.flatMap((c) => (!TAB_LABELS.has(c) ? [c] : classes ? [withClass(c, classes)] : []))}
          : item))
      }
      if (classed === 'whole') {
        const whole = {type: 'element', tagName: tag, properties: {className: classes}, children: [...heading, ...children]}
        return flow ? whole : {type: 'element', tagName: 'span', properties: {}, children: [textNode(SOFT), whole, textNode(SOFT)]}
      }
    }
    if (!flow) {
      // Inline, a component parts its words from its neighbours' (a tab's title and its text).
      return {type: 'element', tagName: 'span', properties: {}, children: [textNode(SOFT), ...heading, ...(heading.length ? [textNode(SOFT)] : []), ...children, textNode(SOFT)]}
    }
    return {type: 'element', tagName: 'div', properties: {}, children: [...heading, ...children]}
  }
}

// What a shown attribute written as JSX shows (Pipecat's examples page: `<Update label={<><Icon
// icon="rocket" /><span>Quickstart</span></>}>`; Mintlify's Update renders its label as React
// children, recorded: tests/data/mintlify-pipecat.shown.json): the element evaluated in the page's
// scope (component-render.js) and read by the page's handlers; nothing where the evaluation stops.
function jsxAttributeShown(state, node, key, renderer) {
  const attribute = (node.attributes || []).find((a) => a.type === 'mdxJsxAttribute' && a.name === key)
  const value = attribute && attribute.value && typeof attribute.value === 'object' ? attribute.value : null
  const expression = value ? expressionOf(value.data && value.data.estree) : undefined
  if (!expression || !/^JSX(?:Element|Fragment)$/.test(expression.type)) return []
  try {
    renderer.steps = 0
    const rendered = renderer.evaluate(expression, renderer.scope(PAGE_MODULE))
    return state.all({type: 'mdxJsxTextElement', children: renderedMdast(rendered, renderer, false)})
  } catch (error) {
    if (error instanceof Stop || error instanceof TypeError || error instanceof RangeError) return []
    throw error
  }
}

// A `<style>` whose CSS is an expression the reader does not run (`{css}`, `{'.a{' + x + '}'}`, a
// template with a placeholder, `dangerouslySetInnerHTML`), or a stylesheet `<link>` whose `href` is
// one: the rules React writes may hide anything on the page, and the reader cannot know which.
// The page is refused (compose reports it, and indexes none of it), as for a selector it cannot
// read: the `css-jsx-unseen-stylesheet` probe.
function unseenStylesheet(node, name, attributes) {
  const unseen = (child) => ((child.type === 'mdxFlowExpression' || child.type === 'mdxTextExpression') &&
    expressionOf(child.data && child.data.estree) !== undefined && literal(child.data.estree, false) === undefined) ||
    (child.children || []).some(unseen)
  const rel = typeof attributes.rel === 'string' ? attributes.rel.toLowerCase().split(/\s+/) : []
  if ((name === 'style' && ('dangerouslySetInnerHTML' in attributes || node.children.some(unseen))) ||
    (name === 'link' && rel.includes('stylesheet') && 'href' in attributes && typeof attributes.href !== 'string')) {
    throw new Error(`a <${name}> whose CSS is a JavaScript expression, which the reader does not run: what it hides is not known`)
  }
}

// An element's attributes written `{literal}`, as JavaScript holds them (`false`, `0`, `null`: the
// `attributeValues` of these are strings or unseen), where no later spread may set them again.
// Docusaurus's Tabs name each tab `label ?? value` of their `values` prop when they have one (a
// TabItem's own `label` is then not shown), else of the TabItem (theme-common 3.10.2's tabsUtils.js,
// theme-classic's Tabs; recorded: tests/data/docusaurus-tabs.shown.json). `tabsValues` writes on
// each TabItem child of a page's Tabs the name it shows ('' where `values` are not literal, or name
// none for its value); `tabName` reads it, or else the TabItem's own `label`, as before.
function tabsValues(node) {
  // A spread may hold `values` too: read as values the reader cannot see (no names, never a leak).
  const attribute = (node.attributes || []).find((a) => a.name === 'values' || a.type === 'mdxJsxExpressionAttribute')
  const values = attribute && attribute.value && typeof attribute.value === 'object'
    ? jsonValue(expressionOf(attribute.value.data && attribute.value.data.estree)) : null
  const text = (child, key) => {
    const found = (child.attributes || []).find((a) => a.type === 'mdxJsxAttribute' && a.name === key)
    return found ? (typeof found.value === 'string' ? found.value : null) : undefined
  }
  for (const child of node.children || []) {
    if (child.type !== 'mdxJsxFlowElement' || child.name !== 'TabItem') continue
    const value = text(child, 'value')
    let name = ''
    if (!attribute) name = text(child, 'label') ?? value ?? ''
    else if (Array.isArray(values) && typeof value === 'string') {
      const entry = values.find((item) => item && typeof item === 'object' && item.value === value)
      name = entry ? entry.label ?? entry.value : ''
    }
    if (name === null) continue // a label written as an expression: read as before
    child.data = {...child.data, tabName: typeof name === 'string' || typeof name === 'number' ? String(name) : ''}
  }
}

function tabName(node, attributes) {
  return node.data && node.data.tabName !== undefined ? node.data.tabName : attributes.label
}

function literalAttributes(node) {
  const values = {}
  for (const attribute of node.attributes || []) {
    if (attribute.type === 'mdxJsxExpressionAttribute') {
      for (const key of Object.keys(values)) delete values[key]
    } else if (attribute.type === 'mdxJsxAttribute' && attribute.value && typeof attribute.value === 'object') {
      const expression = expressionOf(attribute.value.data && attribute.value.data.estree)
      const value = jsonValue(expression)
      if (value === null || typeof value === 'boolean' || typeof value === 'number') values[attribute.name] = value
      else if (expression && expression.type === 'Identifier' && expression.name === 'undefined') values[attribute.name] = null
    }
  }
  return values
}

// What react-dom 19 writes for an HTML element's attribute (renderToStaticMarkup 19.3; what
// Chromium shows of it: the `css-stylesheet-react-attributes` probe): a boolean attribute (`open`, `disabled`) bare when the
// value is truthy, else not at all (`open=""` and `open={0}` too: a `<dialog>` stays closed);
// `data-*`, `aria-*` and the "booleanish" ones (`draggable`) any value as a string (`data-x` bare is
// "true"); any other a string or number, never a boolean (`<div title>` writes no title). hast's
// `true` is a bare attribute.
const REACT_BOOLEAN = new Set(['allowFullScreen', 'async', 'autoFocus', 'autoPlay', 'controls', 'default', 'defer',
  'disabled', 'disablePictureInPicture', 'disableRemotePlayback', 'formNoValidate', 'hidden', 'inert', 'loop',
  'noModule', 'noValidate', 'open', 'playsInline', 'readOnly', 'required', 'reversed', 'scoped', 'seamless', 'itemScope',
  'checked', 'multiple', 'muted'])
// Props React never writes as attributes.
const REACT_RESERVED = new Set(['children', 'key', 'ref', 'dangerouslySetInnerHTML', 'suppressContentEditableWarning',
  'suppressHydrationWarning'])
const REACT_BOOLEANISH = new Set(['contentEditable', 'draggable', 'spellCheck', 'value', 'autoReverse',
  'externalResourcesRequired', 'focusable', 'preserveAlpha'])
function reactAttribute(name, value) {
  if (value === null || value === undefined || typeof value === 'object' || typeof value === 'function') return undefined
  if (REACT_BOOLEAN.has(name)) return value ? true : undefined
  if ((name === 'capture' || name === 'download') && typeof value === 'boolean') return value ? true : undefined
  if (typeof value === 'boolean' && !/^(?:data|aria)-/i.test(name) && !REACT_BOOLEANISH.has(name)) return undefined
  return String(value)
}

// React writes `dangerouslySetInnerHTML={{__html: "…"}}` as the element's content, in place of its
// children: read as raw HTML, parsed as the browser parses it (a `<style>` in it hides what it
// selects: the `css-jsx-inner-html` probe). HTML from an expression the reader does not run may
// hold a stylesheet hiding anything: the page is refused, as for a `<style>` whose CSS is one.
function innerHtml(node, attributes) {
  if (!('dangerouslySetInnerHTML' in attributes)) return undefined
  const attribute = (node.attributes || []).filter((a) => a.type === 'mdxJsxAttribute' && a.name === 'dangerouslySetInnerHTML').pop()
  const value = attribute && attribute.value && typeof attribute.value === 'object'
    ? jsonValue(expressionOf(attribute.value.data && attribute.value.data.estree)) : undefined
  const html = value && typeof value === 'object' && !Array.isArray(value) ? value.__html : undefined
  if (html === null || (value && typeof value === 'object' && !('__html' in value))) return ''
  if (typeof html !== 'string' && typeof html !== 'number') {
    throw new Error(`a <${node.name}> whose HTML is a JavaScript expression, which the reader does not run: what it hides is not known`)
  }
  return String(html)
}

// What React renders of an array written in place (`{["a", "b"]}`: its items one after the other,
// nothing for `true`, `false`, `null`, a hole), when each item is a literal or such an array;
// undefined otherwise (an item only running the page would tell: nothing is shown).
function renderedArray(expression) {
  if (!expression || expression.type !== 'ArrayExpression') return undefined
  let text = ''
  for (const item of expression.elements) {
    const value = !item ? '' : item.type === 'Literal' && (typeof item.value === 'string' || typeof item.value === 'number') ? String(item.value)
      : item.type === 'Literal' && (item.value === null || typeof item.value === 'boolean') && !item.regex ? ''
        : item.type === 'TemplateLiteral' && item.expressions.length === 0 ? item.quasis.map((quasi) => quasi.value.cooked).join('')
          : renderedArray(item)
    if (value === undefined) return undefined
    text += value
  }
  return text
}

function expressionHandler(state, node, frontmatter = null) {
  // An expression shows what it renders: a plain literal's text, an array of them; anything else
  // (a comment, a condition, a variable) is never indexed (the safe reading).
  const value = literal(node.data && node.data.estree, false) ?? renderedArray(expressionOf(node.data && node.data.estree)) ??
    frontmatterValue(expressionOf(node.data && node.data.estree), frontmatter)
  if (typeof value !== 'string' || !value) return undefined
  return node.type === 'mdxFlowExpression'
    ? {type: 'element', tagName: 'p', properties: {}, children: [textNode(value)]}
    : textNode(value)
}

// Astro's MDX binds `frontmatter` to the page's front matter: `{frontmatter.title}` shows a string or
// number it holds (anything else, or another expression of it, shows nothing: code not run).
function frontmatterValue(expression, frontmatter) {
  const keys = []
  while (frontmatter && expression && expression.type === 'MemberExpression') {
    const key = expression.computed ? expression.property.type === 'Literal' && expression.property.value : expression.property.name
    if (typeof key !== 'string') return undefined
    keys.unshift(key)
    expression = expression.object
  }
  if (!frontmatter || !expression || expression.type !== 'Identifier' || expression.name !== 'frontmatter') return undefined
  let value = frontmatter
  for (const key of keys) value = value !== null && typeof value === 'object' && Object.hasOwn(value, key) ? value[key] : undefined
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined
}

function directiveHandler(state, node, source, keywords, docusaurus) {
  // A container directive (`:::note`) is a callout, kept whole by the chunker. One never closed
  // runs to the page's end: its text is the page's (its headings stay sections), not one block.
  // On a Docusaurus site only its admonition `keywords` are boxes: another is what
  // mdast-util-to-hast makes of a node no plugin handled, a `<div>` of its label and text
  // (@docusaurus/mdx-loader's unusedDirectives only warns), as one never closed.
  if (node.type !== 'containerDirective') return undefined
  const lines = written(source, node).trimEnd().split('\n')
  if (lines.length < 2 || !/^\s*:{3,}\s*$/.test(lines[lines.length - 1]) || (keywords && !keywords.includes(node.name))) {
    return {type: 'element', tagName: 'div', properties: {}, children: state.all(node)}
  }
  const label = node.children[0] && node.children[0].data && node.children[0].data.directiveLabel ? node.children[0] : null
  const children = state.all(label ? {...node, children: node.children.slice(1)} : node)
  // Docusaurus's title: a `{title="…"}` attribute first, then the label.
  const attribute = docusaurus && node.attributes && typeof node.attributes.title === 'string' ? node.attributes.title : null
  const properties = {dataCallout: node.name, dataTitle: attribute !== null ? attribute : label ? toString(label) : ''}
  // Docusaurus gives the box its `{.x}` or `class` (the admonitions plugin's className): a class
  // the site's stylesheet hides hides the box.
  const classes = docusaurus && node.attributes && typeof node.attributes.class === 'string' ? node.attributes.class.split(/\s+/).filter(Boolean) : []
  if (classes.length) properties.className = classes
  return {type: 'element', tagName: 'div', properties, children}
}

// TeX as KaTeX shows it: a `%` not escaped (`\%`) starts a comment to the end of its line; a macro
// definition shows nothing (`\newcommand{\x}{…}`, `\def\x#1{…}`, `\let`: the body shows where the
// macro is used, written there as its name), nor do the arguments of a command KaTeX does not trust
// (Mintlify's rehype-katex: `trust: false`; `\href{url}{text}` shows "\href" alone). The
// `mintlify-math-hidden` probe. Malformed (an unclosed brace): left as written, as KaTeX's error shows it.
function texShown(tex, display) {
  return texChoicesOut(texDefinitionsOut(tex.replace(/((?:^|[^\\])(?:\\\\)*)%[^\n]*/g, '$1')), display)
}

// KaTeX 0.16 draws one of `\mathchoice{D}{T}{S}{SS}` by the math style where it stands, and one of
// `\TextOrMath{T}{M}` by the mode: its HTML by the style a fraction, a script or an environment
// makes, its MathML (read too: innerText) by the style set explicitly. Only the formula's own level
// is read (what stands in no group, no script, after no style command or infix fraction): there
// both agree, the first choice in display math, the second inline (M in math mode). Elsewhere no
// choice is indexed (more hidden, never less). The `mintlify-math-choice` probe.
const TEX_CHOICE = /\\(mathchoice|TextOrMath)(?![A-Za-z@])/g
const TEX_RESTYLES = /\\(?:(?:display|text|script|scriptscript)style|begin|over|atop|above|choose|brace|brack)(?![A-Za-z@])/

function texChoicesOut(tex, display) {
  let out = ''
  let at = 0
  for (const match of tex.matchAll(TEX_CHOICE)) {
    const before = tex.slice(0, match.index)
    if (match.index < at || /\\*$/.exec(before)[0].length % 2) continue
    const ends = []
    let end = match.index + match[0].length
    for (let n = 0; n < (match[1] === 'mathchoice' ? 4 : 2) && end >= 0; n++) ends.push(end = texArgument(tex, end))
    if (end < 0) continue // malformed: KaTeX's error shows the source, as written
    const level = before.replace(/\\[{}]/g, '').split('').reduce((depth, c) => depth + (c === '{') - (c === '}'), 0)
    const plain = level === 0 && !/[\^_]\s*$/.test(before) && !TEX_RESTYLES.test(before)
    const chosen = match[1] === 'mathchoice' && display ? 0 : 1
    out += tex.slice(at, match.index) + (plain ? tex.slice(chosen ? ends[0] : match.index + match[0].length, ends[chosen]) : '')
    at = end
  }
  return out + tex.slice(at)
}

const TEX_HIDES = /\\((?:re)?newcommand|providecommand|(?:global\s*\\)?[gex]?def|let|href|url|includegraphics|html(?:Class|Id|Style|Data))(?![A-Za-z@])/g
const TEX_UNTRUSTED = {href: 2, url: 1, includegraphics: 1, htmlClass: 2, htmlId: 2, htmlStyle: 2, htmlData: 2}

function texGroup(tex, at) {
  let depth = 0
  for (let i = at; i < tex.length; i++) {
    if (tex[i] === '\\') i++
    else if (tex[i] === '{') depth++
    else if (tex[i] === '}' && --depth === 0) return i + 1
  }
  return -1
}

// One argument from `at`: a group, a control sequence or a character; -1 when there is none.
function texArgument(tex, at) {
  if (at < 0) return -1
  let i = at
  while (i < tex.length && /\s/.test(tex[i])) i++
  if (tex[i] === '{') return texGroup(tex, i)
  if (tex[i] === '\\') return i + 1 < tex.length ? i + /^\\(?:[A-Za-z@]+|[^])/.exec(tex.slice(i))[0].length : -1
  return i < tex.length && tex[i] !== '}' ? i + 1 : -1
}

function texOptional(tex, at) {
  if (at < 0) return -1
  let i = at
  while (i < tex.length && /\s/.test(tex[i])) i++
  const end = tex[i] === '[' ? tex.indexOf(']', i) : -1
  return end < 0 ? at : end + 1
}

function texDefinitionsOut(tex) {
  let out = ''
  let at = 0
  for (const match of tex.matchAll(TEX_HIDES)) {
    const before = /\\*$/.exec(tex.slice(0, match.index))[0].length
    if (match.index < at || before % 2) continue // inside what was taken out, or an escaped `\\`
    const command = match[1]
    let end = match.index + match[0].length
    if (command in TEX_UNTRUSTED) {
      if (command === 'includegraphics') end = texOptional(tex, end)
      for (let n = 0; n < TEX_UNTRUSTED[command]; n++) end = texArgument(tex, end)
    } else if (command === 'let') {
      end = texArgument(tex, end)
      if (end >= 0) end = texArgument(tex, tex.slice(end).match(/^\s*=?\s?/)[0].length + end)
    } else if (command.endsWith('def')) {
      end = texArgument(tex, end)
      const body = end < 0 ? -1 : tex.indexOf('{', end)
      end = body < 0 ? -1 : texGroup(tex, body)
    } else {
      if (tex[end] === '*') end++
      end = texOptional(tex, texOptional(tex, texArgument(tex, end)))
      end = texArgument(tex, end)
    }
    if (end < 0) continue
    out += tex.slice(at, match.index) + (command in TEX_UNTRUSTED ? '\\' + command : '')
    at = end
  }
  return out + tex.slice(at)
}

function written(source, node) {
  return source.slice(node.position.start.offset, node.position.end.offset)
}

// An underlined (setext) heading stays text in its section: sections start at `#` headings, as
// documented (docs/), and a `---` under a line is more often a rule than a title.
function setextAsText(node, source) {
  for (const child of node.children || []) {
    if (child.type === 'heading' && child.position && source[child.position.start.offset] !== '#') {
      child.data = {...child.data, hName: 'p'}
    }
    setextAsText(child, source)
  }
}

// `{/* … */}` in the text of a `.md` page is hidden: Mintlify and Docusaurus 3 build `.md` pages as
// MDX, where it is a comment (the safe reading for a site whose renderer is not known).
function mdxCommentsInText(node) {
  for (const child of node.children || []) {
    if (child.type === 'text') child.value = child.value.replace(/\{\s*\/\*[\s\S]*?\*\/\s*\}/g, '')
    else mdxCommentsInText(child)
  }
}

// A paragraph of nothing but JSX and expressions (`<p>x</p>` alone on a line) is not one: its
// elements stand in its place as blocks. @mdx-js/mdx 3 does this (remarkMarkAndUnravel, lib/plugin/
// remark-mark-and-unravel.js, whose test is this one), and the page's structure then is the site's:
// no paragraph around a `<div>`, which the browser would break into empty paragraphs beside it
// (a stylesheet's `h3 + p` would match one of those).
function unravel(node) {
  const children = node.children || []
  for (let index = 0; index < children.length; index++) {
    const child = children[index]
    const only = child.type === 'paragraph' && child.children.some((c) => c.type === 'mdxJsxTextElement' || c.type === 'mdxTextExpression') &&
      child.children.every((c) => c.type === 'mdxJsxTextElement' || c.type === 'mdxTextExpression' || (c.type === 'text' && /^[\t\n\f\r ]*$/.test(c.value)))
    if (!only) {
      unravel(child)
      continue
    }
    const blocks = child.children.filter((c) => c.type !== 'text')
    for (const block of blocks) block.type = block.type === 'mdxJsxTextElement' ? 'mdxJsxFlowElement' : 'mdxFlowExpression'
    children.splice(index, 1, ...blocks)
    index-- // read again: a block may hold paragraphs of its own
  }
}

function toString(node) {
  if (node.value !== undefined) return String(node.value)
  return (node.children || []).map(toString).join('')
}

// A code block's title, shown above the code, from its fence's meta (`codeTitles`: the site's
// framework). Mintlify: read by its own parser (@mintlify/common's parseMetaString: what is left
// after its options, `lines`, `highlight={1}`, `icon="…"`…, is the file name it shows). Docusaurus:
// `title="…"` by its own rule, @docusaurus/theme-common's codeBlockTitleRegex (3.10.2,
// lib/utils/codeBlockUtils.js) verbatim: that package imports React, so it is not bundled.
const DOCUSAURUS_CODE_TITLE = /title=(?<quote>["'])(?<title>.*?)\1/

// Starlight: Expressive Code's frames plugin shows a `title="…"` (or `'…'`, or a bare word) of the meta.
const EXPRESSIVE_CODE_TITLE = /(?:^|\s)title=(?:(["'])(?<quoted>.*?)\1|(?<bare>[^\s"']+))/
// …and none with `frame="none"` (the frame that would hold it is left out).
const EXPRESSIVE_CODE_NO_FRAME = /(?:^|\s)frame=(["']?)none\1(?=\s|$)/

function codeTitle(meta, codeTitles) {
  if (!meta) return ''
  if (codeTitles === 'mintlify') return String(parseMetaString(meta).filename || '').trim()
  if (codeTitles === 'starlight') {
    const found = !EXPRESSIVE_CODE_NO_FRAME.test(meta) && meta.match(EXPRESSIVE_CODE_TITLE)
    return found ? (found.groups.quoted ?? found.groups.bare).trim() : ''
  }
  if (codeTitles === 'docusaurus') return (meta.match(DOCUSAURUS_CODE_TITLE)?.groups.title ?? '').trim()
  return ''
}

// The text Astro's MDX makes a heading's id of (@astrojs/markdown-remark's rehypeHeadingIds): its
// text and code, a JSX element's children but not its attributes (`<Badge text>` is no part of
// it), an expression's source (a `frontmatter.x` string its value). github-slugger slugs it as
// written: "A heading <Badge … />" gives `a-heading-`.
function astroHeadingText(node, frontmatter) {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value
  if (node.type === 'mdxTextExpression') return frontmatterValue(expressionOf(node.data && node.data.estree), frontmatter) ?? node.value
  return (node.children || []).map((child) => astroHeadingText(child, frontmatter)).join('')
}

const HANDLERS = (counts, source, codeTitles, local = new Map(), keywords = null, bound = null, magic = [], mermaid = false, frontmatter = null) => ({
  heading: (state, node) => {
    const element = defaultHandlers.heading(state, node)
    if (local.astroHeadings && element.tagName !== 'p') element.properties = {...element.properties, dataAstroText: astroHeadingText(node, frontmatter)}
    return element
  },
  code: (state, node) => {
    // Docusaurus's `markdown.mermaid` makes a `mermaid` fence a diagram (mdx-loader's remark/mermaid);
    // so does Nextra, always (its compile's remark-mermaid).
    const shown = mermaid && node.lang === 'mermaid' ? {...node, value: mermaidDrawn(node.value)}
      : codeTitles === 'docusaurus' ? {...node, value: docusaurusCode(node.value, node.lang, node.meta, magic)}
      : codeTitles === 'mintlify' ? {...node, value: mintlifyCode(node.value, node.lang, node.meta)} : node
    const pre = defaultHandlers.code(state, shown)
    const title = codeTitle(node.meta, codeTitles)
    return title ? [{type: 'element', tagName: 'p', properties: {}, children: [textNode(title)]}, pre] : pre
  },
  mdxJsxFlowElement: jsxHandler(counts, local, codeTitles === 'docusaurus', bound),
  mdxJsxTextElement: jsxHandler(counts, local, codeTitles === 'docusaurus'),
  mdxFlowExpression: (state, node) => expressionHandler(state, node, frontmatter),
  mdxTextExpression: (state, node) => expressionHandler(state, node, frontmatter),
  mdxjsEsm: () => undefined,
  // Math is shown as written (KaTeX draws it): `$$e^{2.5}$$`.
  math: (state, node) => ({type: 'element', tagName: 'p', properties: {}, children: [textNode(texShown(written(source, node), true))]}),
  inlineMath: (state, node) => {
    const text = written(source, node)
    const fence = text.match(/^\$*/)[0]
    return textNode(fence + texShown(text.slice(fence.length, text.length - fence.length), false) + fence)
  },
  // Starlight's asides are its four names; another `:::name` is a `<div>` of its label and text
  // (its remark-asides and directive restoration, 0.41.7 integrations/satteri.ts).
  containerDirective: (state, node) => directiveHandler(state, node, source,
    keywords || (codeTitles === 'starlight' ? [...STARLIGHT_ASIDES] : null), codeTitles === 'docusaurus'),
  leafDirective: () => undefined,
  textDirective: () => undefined,
  // Front matter is read in Python; a YAML node never reaches here.
  yaml: () => undefined,
  toml: () => undefined
})

// Declarative shadow DOM: the first `<template shadowrootmode="open|closed">` child of an element
// that may host a shadow root becomes its shadow tree (Chromium). The element's own children then
// show only where that tree has a `<slot>` for them (a named one for `slot="name"`, the default one
// for the rest), and innerText reads nothing of the shadow tree itself (hidden, as every template).
const SHADOW_HOSTS = new Set(['article', 'aside', 'blockquote', 'body', 'div', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5',
  'h6', 'header', 'main', 'nav', 'p', 'section', 'span'])
function slotted(node) {
  if (node.type !== 'element' || !(SHADOW_HOSTS.has(node.tagName) || node.tagName.includes('-'))) return node.children
  const root = node.children.find((child) => child.tagName === 'template' && child.properties &&
    ['open', 'closed'].includes(String(child.properties.shadowRootMode).toLowerCase()))
  if (!root) return node.children
  const named = new Set()
  let fallback = false
  const walk = (tree) => {
    for (const child of tree.children || []) {
      if (child.tagName === 'slot') {
        const name = child.properties && child.properties.name
        if (name === undefined || name === '') fallback = true
        else named.add(String(name))
      }
      walk(child)
    }
  }
  if (root.content) walk(root.content)
  return node.children.filter((child) => child === root || (child.type === 'element' && child.properties &&
    child.properties.slot !== undefined ? named.has(String(child.properties.slot)) : fallback))
}

// Never shown: hidden by attribute or style (innerText skips `hidden` and the not-rendered
// elements itself; CSS it cannot see). Code spans keep their backticks, links their target, an
// image shows its alt text, so the text stays Markdown for the page view. `around`: the Tailwind
// classes of the elements around that hide in some views only (tailwind.js), which together may
// hide in every view.
function prepare(node, inPre, invisible, around = []) {
  if (!node.children) return
  const kept = []
  for (const child of slotted(node)) {
    if (child.type === 'comment' || child.type === 'doctype') continue
    if (child.type === 'text' && kept.length && kept[kept.length - 1].tagName === 'br' && !inPre) {
      // A hard break's source line end, which the browser collapses: one line break, not two.
      kept.push({...child, value: child.value.replace(/^\n/, '')})
      continue
    }
    if (child.type === 'text' && invisible) continue
    if (child.type === 'element') {
      const properties = child.properties || {}
      // SVG's presentation attribute `display="none"` hides as the style does (Chromium; the
      // `css-svg-popover` probe), and a popover no one opened shows nothing.
      const classes = tailwindFrame(properties.className)
      if (hiddenAttribute(properties) || styleHides(properties.style) || classes.display === 'all') continue
      const within = classes.display === 'some' || classes.visibility === 'some' ? [...around, classes] : around
      if (within.length > 1 && within !== around && hiddenEverywhere(within, false)) continue
      if (DISPLAY_HIDES.has(properties.display) || properties.popover !== undefined) continue
      if (child.tagName === 'template' || NOT_RENDERED.has(child.tagName)) continue
      // A `<select>` shows its options (and an option group's), not text or elements beside them,
      // each on its own line (Chromium's innerText: `x \nA\nB\n y`), as blocks are.
      if (child.tagName === 'select') {
        // Every option, whatever hides it (`hidden`, a style, a class: innerText lists them all).
        const options = (node) => node.children.filter((c) => c.type === 'element' && (c.tagName === 'option' || c.tagName === 'optgroup'))
          .map((c) => (c.tagName === 'optgroup' ? {...c, properties: {}, children: options(c)} : {...c, tagName: 'div', properties: {}}))
        child.children = options(child)
      }
      if (child.tagName === 'dialog' && properties.open === undefined) continue
      // An object with `data` shows its resource; its children only if that fails to load (the
      // `css-object` probe): a site's resource loads, so they are hidden (fail closed).
      if (child.tagName === 'object' && properties.data) continue
      // SVG's `visibility` attribute, under the style's (which wins when it says one).
      const visibility = typeof properties.visibility === 'string' ? properties.visibility.trim().toLowerCase() : ''
      const visible = styleVisible(properties.style) ?? (classes.visibility === 'all' ? false : undefined) ??
        (visibility === 'hidden' || visibility === 'collapse' ? false : visibility === 'visible' ? true : undefined)
      if (visible === false || (invisible && visible !== true) || (within.length > 1 && within !== around && hiddenEverywhere(within, true))) {
        prepare(child, inPre, true, within) // its text goes; a descendant made visible again stays
        kept.push(child)
        continue
      }
      if (child.tagName === 'img' || (child.tagName === 'input' && properties.type === 'image')) {
        if (properties.alt) kept.push(textNode(String(properties.alt)))
        continue
      }
      if (child.tagName === 'code' && !inPre) {
        const content = toText(child, {whitespace: 'pre'}).replace(/\n/g, ' ')
        kept.push(content ? {...child, children: [{...markNode(codeSpan(content)), data: {mark: true, shown: content}}]} : child)
        continue
      }
      prepare(child, inPre || child.tagName === 'pre', false, within)
      // A link keeps its Markdown, `[text](target)`: the page view renders it, and search tells a
      // page of links (navigation) by it. The target is in the published page, though not its text.
      // It is written between NULs (never text: pages lose theirs before reading) for compose to
      // write where the site publishes a page file it names (app/corpus/page_links.py).
      if (child.tagName === 'a' && typeof properties.href === 'string' && !inPre) {
        const text = toText(child, {whitespace: 'pre'})
        if (text.trim() && text !== properties.href) {
          kept.push({...child, children: [markNode('['), ...child.children, markNode('](\0' + properties.href + '\0)')]})
          continue
        }
      }
      // Emphasis keeps its Markdown, as the page view renders chunk text.
      const mark = inPre ? '' : child.tagName === 'strong' ? '**' : child.tagName === 'em' ? '*' : ''
      if (mark && toText(child, {whitespace: 'pre'}).trim()) {
        kept.push({...child, children: [markNode(mark), ...child.children, markNode(mark)]})
        continue
      }
    }
    kept.push(child)
  }
  node.children = kept
}

// A page's own `<style>` rules that hide (`display: none`, `visibility: hidden`, …), applied to the
// elements their selectors match, before the element's inline style (which wins, as in the
// cascade): innerText needs CSS, and hast-util-to-text has none. The stylesheet is read by css-tree,
// each selector by css-selector-parser and matched by hast-util-select (the parser it uses), on the
// page as the recording's browser holds it: in `<html><body>`. Rules that show (`display: block`)
// are left out, and of a hiding rule only its hiding declarations are kept: hiding more than the
// site, where a later or more specific rule shows again, never less (no specificity needed). A
// theme's stylesheet is left out (not in the page); the theme's elements around the page are taken
// to match whatever a rule's leading compounds say (`withOutside`).
const SELECTOR = createParser({
  syntax: {baseSyntax: 'latest', nestingSelector: true, pseudoClasses: {unknown: 'accept'}, pseudoElements: {unknown: 'accept'}},
  strict: false // as the browser: `[a=b` at the end is `[a=b]`
})
const CSS_OPTIONS = {parseRulePrelude: false, parseAtrulePrelude: false, onParseError: () => {}}

// Pseudo-elements whose box holds none of the page's text: a rule for one hides what it generates
// (`a::after`), a scrollbar, a shadow tree's part, never the element's text: the rule is left out.
// Another pseudo-element (`::details-content`) is read as its element (more hidden, never less).
const TEXT_FREE = /^(?:before|after|first-line|first-letter|marker|placeholder|selection|backdrop|file-selector-button|cue|cue-region|part|slotted|highlight|spelling-error|grammar-error|target-text|view-transition.*|-(?:webkit|moz|ms)-.*)$/

// Pseudo-classes hast-util-select does not know. The same test under another name: `:where()` is
// `:is()` (specificity apart, which is not used). States no element is in when the page is read,
// as recorded (nothing hovered, focused, targeted, visited, playing, full screen; no shadow host):
// never matched, so `.a:hover .b` hides nothing and `.a:not(:hover)` every `.a`, as innerText
// shows it. Any other is matched as "maybe": as true where it narrows a match, as false under
// `:not()`, so that the selector matches more than the site's, never less.
const SAME = {where: 'is', matches: 'is', any: 'is', '-webkit-any': 'is', '-moz-any': 'is', link: 'any-link', '-webkit-any-link': 'any-link'}
const NEVER = /^(?:hover|active|focus|focus-visible|focus-within|visited|target|target-within|current|past|future|playing|paused|seeking|buffering|stalled|muted|volume-locked|fullscreen|-webkit-full-screen|-moz-full-screen|modal|picture-in-picture|popover-open|user-invalid|user-valid|autofill|-webkit-autofill|-moz-focusring|host|host-context|drop|interest-source|interest-target)$/
// `:read-only`/`:read-write` are "maybe" too: hast-util-select takes only `contenteditable="true"`
// for an editing host (Chromium: `""`, any case, `plaintext-only`; `false` inside one ends it).
const KNOWN = new Set(['any-link', 'blank', 'dir', 'empty', 'first-child', 'first-of-type',
  'has', 'is', 'lang', 'last-child', 'last-of-type', 'not', 'nth-child', 'nth-last-child', 'nth-last-of-type', 'nth-of-type',
  'only-child', 'only-of-type', 'optional', 'required', 'root', 'scope'])
// Form states hast-util-select reads from the element's own attributes alone: a `<fieldset
// disabled>` disables what it holds, a `<select>` with no `selected` option checks its first, a
// later checked radio of the group unchecks an earlier one, a `type` matches in any case. Read as
// the elements that may be in the state (where it narrows a match) or surely are (under `:not()`).
const FORM = 'button, input, select, textarea, fieldset, optgroup, option'
const STATES = {
  checked: {maybe: 'input[type=checkbox i][checked], input[type=radio i][checked], option', sure: 'input[type=checkbox i][checked]'},
  disabled: {maybe: FORM, sure: FORM.split(', ').map((tag) => `${tag}[disabled]`).join(', ')},
  enabled: {maybe: FORM, sure: null}
}
const stateRead = (name, negated) => {
  const text = STATES[name][negated ? 'sure' : 'maybe']
  return text ? SELECTOR(`:is(${text})`).rules[0].items[0] : NOTHING
}
// Attribute names match in any case on an HTML element (an SVG element's as written), and the values
// of the attributes HTML lists as case-insensitive (`lang`, `type`, `dir`, `align`…) in any case
// (HTML's "case-sensitivity of selectors"; the `css-stylesheet-html-semantics` probe).
const CASE_FREE_VALUES = new Set(['accept', 'accept-charset', 'align', 'alink', 'axis', 'bgcolor', 'charset', 'checked',
  'clear', 'codetype', 'color', 'compact', 'declare', 'defer', 'dir', 'direction', 'disabled', 'enctype', 'face', 'frame',
  'hreflang', 'http-equiv', 'lang', 'language', 'link', 'media', 'method', 'multiple', 'nohref', 'noresize', 'noshade',
  'nowrap', 'readonly', 'rel', 'rev', 'rules', 'scope', 'scrolling', 'selected', 'shape', 'target', 'text', 'type',
  'valign', 'valuetype', 'vlink'])

function attributeRead(item) {
  const lower = item.name.toLowerCase()
  const read = item.value && !item.caseSensitivityModifier && CASE_FREE_VALUES.has(lower) ? {...item, caseSensitivityModifier: 'i'} : item
  if (lower === item.name) return read
  return {type: 'PseudoClass', name: 'is', argument: {type: 'Selector', rules: [read, {...read, name: lower}].map((each) => ({type: 'Rule', items: [each]}))}}
}

// hast-util-select compares a selector's value with hast's value of the attribute, not the string
// written (which Chromium compares): a boolean's is `true` (`checked=""` fails `[checked=""]`), a
// number's a number (`tabindex="01"` fails `[tabindex="01"]`), a list's its words joined by one space
// or a comma and a space (`class="a  b"`, `accept="a,b"`), and an empty list none (`class=""` fails
// `[class]`). Such a test is "maybe" (the `css-stylesheet-attribute-values` probe).
function attributeRewritten(item, negated) {
  const info = find(htmlSchema, item.name.toLowerCase())
  const listed = info.spaceSeparated || info.commaSeparated || info.commaOrSpaceSeparated
  if (!item.value) return !negated && Boolean(listed) // under `:not()`, the test misses more: more hidden
  if (info.boolean || info.overloadedBoolean || info.number) return true
  return Boolean(listed) && (item.value.type !== 'String' || /^$|[\s,]/.test(item.value.value))
}

// A `:has()` of siblings (`:has(+ .b)`, `:has(~ .b)`): hast-util-select matches only what the
// element holds, so it is "maybe".
function siblingCombinator(rule) {
  return rule.combinator === '+' || rule.combinator === '~' || Boolean(rule.nestedRule && siblingCombinator(rule.nestedRule))
}
const ALWAYS = {type: 'WildcardTag'}
// Matches no element, at once: an attribute name parse5 never writes (it lowers their case). Not
// `:not(*)`, which hast-util-select tests by walking all the element holds (`:not(:not(*))` took
// 61 s on 300 nested elements).
const NOTHING = {type: 'Attribute', name: 'docschatNever'}

// A selector list hast-util-select matches as the browser would in the recorded state (or more):
// null for a rule that hides no element's text (every selector a pseudo-element's). `parent`, for a
// nested rule, is the selector `&` stands for (`:root` at the top, as CSS Nesting says).
function matchable(selector, parent, sure = false) {
  const rules = []
  for (const rule of selector.rules) {
    for (const each of parent || hasNesting(rule) ? nest(rule, parent || ROOT) : [rule]) {
      const read = chain(each, sure, false)
      if (read) rules.push(read)
    }
  }
  return rules.length ? {type: 'Selector', rules} : null
}

const ROOT = {type: 'Selector', rules: [{type: 'Rule', items: [{type: 'PseudoClass', name: 'root'}]}]}

function hasNesting(rule) {
  return rule.items.some((item) => item.type === 'NestingSelector' ||
    (item.argument && item.argument.type === 'Selector' && item.argument.rules.some(hasNesting))) ||
    Boolean(rule.nestedRule && hasNesting(rule.nestedRule))
}

// A nested rule's selectors with `&` written out: its parent's selectors before it (`.a .b { &.c
// > .d }` is `.a .b.c > .d`; one with no `&` is under its parent), each of the parent's list with
// each of its own. An `&` elsewhere (`.x &`, `:not(&)`), or a product over 64 selectors, is
// `:is(parent)`, which chain() reads.
function nest(rule, parent) {
  const first = rule.items.filter((item) => item.type !== 'NestingSelector')
  const leading = first.length < rule.items.length && !hasNesting({...rule, items: first})
  if ((leading || !hasNesting(rule)) && parent.rules.length <= 64) {
    const append = (chain, items, next) => chain.nestedRule
      ? {...chain, nestedRule: append(chain.nestedRule, items, next)}
      : {...chain, items: [...chain.items, ...items], nestedRule: next}
    return parent.rules.map((outer) => (leading ? append(outer, first, rule.nestedRule) : append(outer, [], rule)))
  }
  const scope = {type: 'PseudoClass', name: 'is', argument: parent}
  const replace = (node) => ({...node, items: node.items.map((item) => item.type === 'NestingSelector' ? scope
    : item.argument && item.argument.type === 'Selector' ? {...item, argument: {...item.argument, rules: item.argument.rules.map(replace)}} : item),
  nestedRule: node.nestedRule && replace(node.nestedRule)})
  return [replace(rule)]
}

// A compound and those after it; `negated` under `:not()`, `inside` in `:is()` or `:not()`, where
// hast-util-select sees only the element and what it holds: a selector with a combinator there
// (`:is(.a .b)`) never matches, so it is read as its last compound (`.b`: more) or, under
// `:not()`, as nothing (`:not(.a .b)` then matches more too). `nested`: in any pseudo-class's
// selectors.
function chain(rule, negated, inside, nested = false) {
  if (inside && rule.nestedRule) {
    if (negated) return {type: 'Rule', items: [NOTHING]}
    let last = rule
    while (last.nestedRule) last = last.nestedRule
    return chain({...last, combinator: undefined}, negated, inside, nested)
  }
  const items = []
  for (const item of rule.items) {
    if (item.type === 'PseudoElement') {
      // Read as its element where the rule hides; where it shows (`negated`: read as sure), not.
      if (TEXT_FREE.test(item.name.toLowerCase()) || negated) return null
    } else if (item.type === 'TagName' && item.name !== item.name.toLowerCase()) {
      // HTML's names match in any case; an SVG element's (`foreignObject`) as written.
      items.push({type: 'PseudoClass', name: 'is', argument: {type: 'Selector', rules: [item, {...item, name: item.name.toLowerCase()}].map((tag) => ({type: 'Rule', items: [tag]}))}})
    } else if (item.type === 'PseudoClass') {
      items.push(pseudo(item, negated, nested))
    } else if (item.type === 'Attribute') {
      items.push(attributeRewritten(item, negated) ? (negated ? NOTHING : ALWAYS) : attributeRead(item))
    } else items.push(item)
  }
  const next = rule.nestedRule ? chain(rule.nestedRule, negated, inside, nested) : undefined
  const kept = items.filter((item) => item !== ALWAYS)
  return next === null ? null : {...rule, items: kept.length ? kept : [ALWAYS], nestedRule: next}
}

// hast-util-select tests `:is()`, `:not()` and `:has()` by walking what the element holds, a walk
// per element tested: one inside another's selectors multiplies them (`:is(:is(:is(.x)))` took
// 1 s on 300 nested elements, two `:has()` in `:not()` minutes). One inside another is "maybe".
function pseudo(item, negated, nested) {
  const name = SAME[item.name.toLowerCase()] || item.name.toLowerCase()
  if (NEVER.test(name)) return NOTHING
  if (STATES[name]) return stateRead(name, negated)
  if (name === 'has' && item.argument && item.argument.type === 'Selector' && item.argument.rules.some(siblingCombinator)) return negated ? NOTHING : ALWAYS
  if (!KNOWN.has(name) || (item.argument && item.argument.type === 'FormulaOfSelector') ||
    (nested && item.argument && (item.argument.type === 'Selector' || name === 'is'))) return negated ? NOTHING : ALWAYS
  let argument = item.argument
  if (argument && argument.type === 'String' && name === 'is') argument = SELECTOR(argument.value) // `:-webkit-any(…)`
  if (argument && argument.type === 'Selector') {
    const inner = negated !== (name === 'not')
    // `:has()` holds relative selectors, matched in the element's subtree: its combinators are read.
    const rules = argument.rules.map((rule) => chain(rule, inner, name !== 'has', true)).filter(Boolean)
    if (!rules.length) return name === 'not' ? ALWAYS : NOTHING // `:not(::before)`, `:is(::before)`: nothing in it matches
    argument = {...argument, rules}
  }
  return {...item, name, argument}
}

// The rules under `nodes` that hide, as {selector, declarations}; `parent` the selector of the rule
// they are nested in. An at-rule's (`@media`, `@supports`, `@container`, `@layer`, `@scope`) apply
// whatever its condition (more hidden, never less); `@keyframes` hold no rules. Only a rule that
// hides, or holds rules, has its selector read: one the parser cannot read is an error then (the
// page is not indexed, and compose reports it: fail closed), as it would leak were it valid CSS.
// In a VitePress page's `<style scoped>` (`out.scoped`) each selector is first rewritten as Vue's
// compiler rewrites it (vue-scoped.js); `vue` is then the rule the nodes are in, as Vue sees it, and
// `own` the selector that rule's own declarations apply to (a rule holding rules: `&[data-v-…]`).
function hidingRules(nodes, parent, out, imports = 0, sure = true, vue = null) {
  for (const node of nodes) {
    if (node.type === 'Rule') {
      const children = node.block.children.toArray()
      const holdsRules = children.some((child) => child.type === 'Rule' || (child.type === 'Raw' && child.value.includes('{')))
      const written = out.module ? moduleSelector(withoutComments(node.prelude.value)) : node.prelude.value
      const scoped = out.scoped ? scopedRule(withoutComments(written), vue && vue.rule, holdsRules) : null
      const prelude = scoped ? scopedSelector(scoped) : written
      const showing = sure && !parent && showingDisplay(children)
      if (showing) {
        let selector = null
        try {
          selector = matchable(SELECTOR(withoutComments(prelude)), null, true)
        } catch {} // a selector not read shows nothing
        if (selector) out.showing.push({selector, declarations: showing})
      }
      const declarations = hidingDeclarations(children)
      const animations = animationNames(declarationsOf(children))
      const rules = holdsRules || children.some((child) => child.type === 'Atrule')
      if (!declarations && !animations.length && !rules) continue
      const selector = readSelector(prelude, parent)
      if (!selector) continue
      // Vue scopes the declarations of a rule holding rules apart, as a rule `&` inside it.
      const own = scoped && holdsRules && !scoped.__deep ? readSelector(scopedSelector(scopedRule('&', scoped, false)), selector) : selector
      if (declarations && own) out.push({selector: own, declarations})
      if (animations.length && own) out.animated.push({selector: own, animations})
      hidingRules(children, selector, out, 0, true, scoped && {rule: scoped, own})
    } else if (node.type === 'Atrule' && node.block && /keyframes$/i.test(node.name)) {
      // A keyframe's hiding declarations, by the animation's name (`animated` says who runs it).
      const declarations = node.block.children.toArray().filter((frame) => frame.type === 'Rule')
        .map((frame) => hidingDeclarations(frame.block.children)).filter(Boolean).join(';')
      const name = unquote(node.prelude ? node.prelude.value : '')
      if (declarations && name) out.keyframes.set(name, [out.keyframes.get(name), declarations].filter(Boolean).join(';'))
    } else if (node.type === 'Atrule' && node.block) {
      // Vue scopes an at-rule's declarations in a rule holding rules as the rule's own (`own`).
      const target = (vue && vue.own) || parent
      const declarations = target && hidingDeclarations(node.block.children)
      if (declarations) out.push({selector: target, declarations})
      const animations = target ? animationNames(declarationsOf(node.block.children)) : []
      if (animations.length) out.animated.push({selector: target, animations})
      // Only `@layer` applies whatever the page: a rule under a condition may not show.
      hidingRules(node.block.children, parent, out, imports, sure && /^layer$/i.test(node.name), vue && {rule: vue.rule, own: null})
    } else if (node.type === 'Atrule' && node.name.toLowerCase() === 'import' && node.prelude && imports < 20) {
      // `@import url("data:text/css,…")`: its sheet's rules, as the browser imports them (wherever
      // the rule stands: Chromium ignores one after other rules, more hidden here, never less).
      const url = /^\s*(?:url\(\s*(["']?)([\s\S]*?)\1\s*\)|(["'])([\s\S]*?)\3)/i.exec(node.prelude.value)
      const css = url ? dataCss(url[2] ?? url[4]) : ''
      // Read unscoped, whatever the sheet importing it: what Vite does to an import in a scoped
      // style was not recorded, and unscoped its rules hide more, never less.
      if (css) {
        const scoped = out.scoped
        out.scoped = false
        try {
          hidingRules(parseCss(css, CSS_OPTIONS).children, parent, out, imports + 1, false)
        } finally {
          out.scoped = scoped
        }
      } else if (url) linkTo(url[2] ?? url[4]) // a file of the site, perhaps: compose reads it (`links`)
    } else if (node.type === 'Raw' && parent && node.value.includes('{')) {
      // css-tree reads a nested rule only when it starts with `&`; one that does not (`.a { .b {…} }`,
      // as Chromium reads it) is left as raw text: read again here as rules.
      hidingRules(parseCss(node.value, CSS_OPTIONS).children, parent, out, imports, false, vue)
    }
  }
}

// A selector's comments, as CSS's tokenizer drops them (`.a/**/.b` is `.a.b`; `.a, /* .b, */ .c` is
// `.a, .c`): css-selector-parser reads none, and refused the page (every page, in a site's sheet).
function withoutComments(text) {
  return text.replace(/("(?:[^"\\]|\\[\s\S])*"?|'(?:[^'\\]|\\[\s\S])*'?)|\/\*[\s\S]*?(?:\*\/|$)/g, (all, string) => string ?? '')
}

function readSelector(written, parent) {
  const text = withoutComments(written)
  try {
    return matchable(SELECTOR(text), parent)
  } catch (error) {
    // A nested rule relative to its parent (`> .b`) is read as `& > .b`.
    if (parent) {
      try {
        return matchable(SELECTOR('& ' + text), parent)
      } catch {}
    }
    throw new Error(`a <style> selector the reader cannot read: ${text.trim()} (${error.message})`)
  }
}

// A rule's hiding declarations as CSS text ('' for none): those of its declarations, as the cascade
// reads them, that hide.
function hidingDeclarations(nodes) {
  const {found, important} = cascade(declarationsOf(nodes))
  const names = {display: 'display', visibility: 'visibility', contentVisibility: 'content-visibility'}
  return Object.keys(found).filter((key) => hiding(key, found[key]))
    .map((key) => `${names[key]}: ${found[key]}${important[key] ? ' !important' : ''}`).join(';')
}

// A rule's `display` when it shows (`block`, `revert`…): it wins over the `hidden` attribute, a
// presentational hint below every author rule (`<p hidden class="x">` and `.x {display: block}`
// show, the `css-hidden-stylesheet-display` probe). '' for none.
function showingDisplay(nodes) {
  const {found, important} = cascade(declarationsOf(nodes))
  return found.display && !hiding('display', found.display) ? `display: ${found.display}${important.display ? ' !important' : ''}` : ''
}

// The site's own stylesheet's hiding rules, read once for every page of the site (the last one read).
let siteRules = {css: '', rules: []}

// `scoped`, `module`: a VitePress page's `<style scoped>`, `<style module>` (vue-scoped.js).
function rulesOf(css, scoped = false, module = false) {
  const rules = Object.assign([], {keyframes: new Map(), animated: [], showing: [], scoped, module})
  hidingRules(parseCss(css, CSS_OPTIONS).children, null, rules)
  return rules
}

// A CSS animation whose keyframes hide (`@keyframes gone { to { visibility: hidden } }`): Chromium
// applies a keyframe's `display`, `visibility` and `content-visibility` to the element it runs on
// (the `css-keyframes` probe). Read as the element's own hiding declarations, whatever the
// animation's timing (a keyframe hides at some time: more hidden, never less). The names an
// `animation` or `animation-name` declaration says: each identifier or string of its value (a
// keyword such as `infinite` names no keyframes of the page, or hides more).
const ANIMATION = new Set(['animation', 'animation-name', '-webkit-animation', '-webkit-animation-name'])

function animationNames(declarations) {
  return declarations.filter(([name]) => ANIMATION.has(name.trim().toLowerCase())).flatMap(([, , , words]) => words)
}

function unquote(text) {
  return text.trim().replace(/^(["'])([\s\S]*)\1$/, '$2')
}

// The rules that run a hiding animation, of the site's and the page's sheets together (an
// animation may name keyframes of the other).
function animatedRules(sheets) {
  const keyframes = new Map(sheets.flatMap((sheet) => [...sheet.keyframes]))
  return sheets.flatMap((sheet) => sheet.animated).map(({selector, animations}) => ({selector,
    declarations: overriding(animations.map((name) => keyframes.get(name)).filter(Boolean).join(';'))})).filter((rule) => rule.declarations)
}

// An animation's declarations override the element's own but `!important` ones (the cascade's
// animation origin): written `!important` here, so that they win over a plain `display: block`.
function overriding(declarations) {
  return declarations.split(';').filter(Boolean).map((d) => /!\s*important\s*$/i.test(d) ? d : d + ' !important').join(';')
}

// An element's own `style` (CSS text or a JSX object) that runs a hiding animation: its hiding
// declarations, '' for none.
function animatedStyle(style, keyframes) {
  let declarations = []
  if (typeof style === 'string') {
    declarations = declarationsOf(parseCss(style, {context: 'declarationList', onParseError: () => {}}).children)
  } else if (style && typeof style === 'object') {
    return animatedStyle(reactStyleText(style), keyframes)
  }
  return overriding(animationNames(declarations).map((name) => keyframes.get(name)).filter(Boolean).join(';'))
}

// `siteCss`: the stylesheet the site links from every page (its custom CSS; app/corpus/site.py
// says which files), before the page's own. `blocks`: a VitePress page's `<style>` blocks (Vue's
// SFC blocks, [{css, scoped}]), null for any other page.
function applyStylesheets(tree, siteCss = '', blocks = null) {
  const sheets = []
  const collect = (node) => {
    for (const child of node.children || []) {
      if (child.type === 'element' && child.tagName === 'style') {
        // Chromium applies a `<style>` without a type, or of type "" or "text/css" (any case);
        // another (`text/plain`, a parameter) is not CSS (the `css-stylesheet-element-kinds` probe).
        // Its `media` is applied whatever it says, as an `@media` rule is (more hidden, never less).
        const type = (child.properties || {}).type
        if (type === undefined || ['', 'text/css'].includes(String(type).toLowerCase())) sheets.push(underMedia(child, unescapeHtml(toString(child))))
      }
      else if (child.type === 'element' && child.tagName === 'link') sheets.push(underMedia(child, linkedCss(child.properties || {})))
      else collect(child)
    }
  }
  collect(tree)
  if (siteCss && siteRules.css !== siteCss) {
    const collecting = linksFound
    linksFound = null // the site's imports are compose's to read, once (`cssLinks`)
    try {
      siteRules = {css: siteCss, rules: rulesOf(siteCss)}
    } finally {
      linksFound = collecting
    }
  }
  sheets.push(...(blocks || []).filter((block) => !block.scoped && !block.module).map((block) => block.css))
  const read = [...(siteCss ? [siteRules.rules] : []), ...(sheets.length ? [rulesOf(sheets.join('\n'))] : []),
    ...(blocks || []).filter((block) => block.scoped || block.module).map((block) => rulesOf(block.css, Boolean(block.scoped), Boolean(block.module)))]
  const rules = [...read.flat(), ...animatedRules(read)]
  const keyframes = new Map(read.flatMap((sheet) => [...sheet.keyframes]))
  if (keyframes.size) animateStyles(tree, keyframes)
  const showing = hasHiddenAttribute(tree) ? read.flatMap((sheet) => sheet.showing) : []
  if (!rules.length && !showing.length) return
  // A VitePress page is a `<div>` of the theme's (its component's template), scoped as its elements.
  const wrapper = blocks && {type: 'element', tagName: 'div', properties: {[SCOPE_PROPERTY]: '', [PAGE_PROPERTY]: ''}, children: tree.children}
  const body = {type: 'element', tagName: 'body', properties: {}, children: wrapper ? [wrapper] : tree.children}
  const html = {type: 'element', tagName: 'html', properties: {}, children: [body]}
  const page = {type: 'root', children: [html]}
  const {depth, siblings, elements} = shape(page)
  pageTop = wrapper ? PAGE_TOP : BODY
  // One walk of the page for the rules of each set of declarations (most say `display: none`): the
  // order of hiding declarations changes nothing (styleOf: `!important` wins whatever its place).
  const grouped = new Map()
  for (const rule of rules) {
    const group = grouped.get(rule.declarations) || new Map() // a chain once, by its text
    for (const chain of rule.selector.rules.flatMap(withOutside)) {
      const read = bounded(chain, depth, siblings, elements)
      group.set(render({type: 'Selector', rules: [read]}), read)
    }
    grouped.set(rule.declarations, group)
  }
  const said = new Map()
  for (const [declarations, group] of grouped) {
    const selectors = [...group.values()]
    for (const element of selectAll(render({type: 'Selector', rules: selectors}), page)) said.set(element, [...(said.get(element) || []), declarations])
  }
  // Rules that show what the `hidden` attribute hides, read as surely matching (no theme's elements
  // around the page, no "maybe", none under a condition, none cut to a budget): their `display`
  // goes before the hiding declarations, which win over it (more hidden, never less).
  const shown = new Map()
  for (const rule of showing) {
    const chains = rule.selector.rules.filter((chain) => bounded(chain, depth, siblings, elements) === chain)
    if (!chains.length) continue
    for (const element of selectAll(render({type: 'Selector', rules: chains}), page)) {
      if (hiddenAttribute(element.properties || {})) shown.set(element, [...(shown.get(element) || []), rule.declarations])
    }
  }
  for (const element of new Set([...shown.keys(), ...said.keys()])) {
    const properties = element.properties || {}
    const declarations = [...(shown.get(element) || []), ...(said.get(element) || [])]
    element.properties = {...properties, style: declarations.join(';') + ';' + (typeof properties.style === 'string' ? properties.style : '')}
  }
  // A rule hiding the page itself (`:root`, `body`): its text goes as the page's element's would.
  const own = [html, body, wrapper].flatMap((element) => said.get(element) || [])
  if (own.length) tree.children = [{type: 'element', tagName: 'div', properties: {style: own.join(';')}, children: tree.children}]
}

// A `<style media>` or `<link media>` sheet: its rules hide whatever the media (as an `@media`
// rule's do), and show only where no media is said.
function underMedia(element, css) {
  const media = (element.properties || {}).media
  return media === undefined || ['', 'all'].includes(String(media).trim().toLowerCase()) || !css ? css : `@media docschat-media {\n${css}\n}`
}

function hasHiddenAttribute(node) {
  return (node.children || []).some((child) => child.type === 'element' && ((child.properties || {}).hidden || hasHiddenAttribute(child)))
}

// Elements whose own `style` runs a hiding animation get its hiding declarations first.
function animateStyles(node, keyframes) {
  for (const child of node.children || []) {
    if (child.type !== 'element') continue
    const properties = child.properties || {}
    const declarations = properties.style ? animatedStyle(properties.style, keyframes) : ''
    if (declarations) {
      child.properties = {...properties, style: typeof properties.style === 'string' ? properties.style + ';' + declarations
        : {...properties.style, ...cssObject(declarations)}}
    }
    animateStyles(child, keyframes)
  }
}

function cssObject(declarations) {
  return Object.fromEntries(declarations.split(';').map((d) => d.split(':').map((part) => part.trim())).filter(([name]) => name)
    .map(([name, value]) => [name === 'content-visibility' ? 'contentVisibility' : name, value]))
}

function unescapeHtml(text) {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&')
}

// The CSS of a `<link rel="stylesheet">` whose `href` is a `data:` URL of type `text/css`, which
// the browser applies as a `<style>` ('' for any other link, whose URL is collected: compose reads
// a file of the source it names, `linkTo`). Chromium applies no other type (strict MIME checking: `data:,`
// and `text/plain` are not stylesheets), no `alternate` stylesheet and no `disabled` one (the
// `css-link-stylesheet` probes); its `media` is not read (more hidden, never less).
function linkedCss(properties) {
  const rel = [].concat(properties.rel || []).join(' ').toLowerCase().split(/\s+/)
  if (!rel.includes('stylesheet') || rel.includes('alternate') || properties.disabled) return ''
  const href = typeof properties.href === 'string' ? properties.href : ''
  const css = dataCss(href)
  if (!css) linkTo(href)
  return css
}

// The URLs of the stylesheets a page links or imports that are not `data:` URLs, as written: the
// reader cannot fetch them, and compose reads those that are files of the source and reads the
// page again with them (app/corpus/site_model.py `Site.linked_css`). Collected while a page's own
// sheets are read (null otherwise: the site's stylesheets' imports are read with them, once).
let linksFound = null

function linkTo(url) {
  const href = url.replace(/[\t\n\r]/g, '').trim()
  if (linksFound && href && !/^data:/i.test(href) && !linksFound.includes(href)) linksFound.push(href)
}

// The URLs a stylesheet imports (`@import`), but `data:` ones (read with it), as JSON: compose
// reads those of the site's stylesheets once (`Site.css`).
export function cssLinks(css) {
  linksFound = []
  try {
    hidingRules(parseCss(css, CSS_OPTIONS).children, null, Object.assign([], {keyframes: new Map(), animated: [], showing: []}))
    return JSON.stringify({links: linksFound})
  } catch (error) {
    return failure(error)
  } finally {
    linksFound = null
  }
}

// A `data:` URL's text when its type is `text/css` (any case, with parameters), '' otherwise:
// percent-decoded, then base64-decoded when a parameter says `base64`, read as UTF-8.
function dataCss(url) {
  const match = /^data:([^,]*),([\s\S]*)$/i.exec(url.replace(/[\t\n\r]/g, '').trim())
  if (!match) return ''
  const [type, ...parameters] = match[1].split(';').map((part) => part.trim().toLowerCase())
  if (type !== 'text/css') return ''
  let bytes = match[2].replace(/%([0-9a-f]{2})/gi, (_, hex) => String.fromCharCode(parseInt(hex, 16)))
  if (parameters.includes('base64')) bytes = base64Bytes(bytes)
  try {
    return decodeURIComponent(escape(bytes)) // bytes as UTF-8 (V8 has no TextDecoder)
  } catch {
    return bytes
  }
}

// Forgiving base64 (the URL spec's, as Chromium decodes a data URL): '' where it is not base64.
function base64Bytes(text) {
  const digits = text.replace(/[\t\n\f\r ]/g, '').replace(/==?$/, '')
  if (/[^A-Za-z0-9+/]/.test(digits) || digits.length % 4 === 1) return ''
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
  let out = ''
  let buffer = 0
  let bits = 0
  for (const digit of digits) {
    buffer = (buffer << 6) | ALPHABET.indexOf(digit)
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out += String.fromCharCode((buffer >> bits) & 255)
    }
  }
  return out
}

// A site's theme holds the page: its `<html>` and `<body>` and the elements around the page's own
// (Docusaurus's `.theme-doc-markdown` and its title's `<header>`, Material's `.md-typeset`, a
// `[data-theme=dark]`), which the reader does not have, and whose classes and states it cannot
// know (a theme may be swizzled, a mode switched). A selector's leading compounds may match them:
// `.markdown .note` hides every `.note` of a Docusaurus page (the `docusaurus-outside` probe, in
// the theme's own elements). So each selector is matched as each of its tails too, the compounds
// before it taken as matched outside the page: after a descendant combinator, anywhere in the page;
// after `>` or `~`, on an element of the page's top level (a child of the theme's, or after its
// title); after `+`, on the page's first element. More hidden, never less: `.navbar .note` hides
// every `.note` too, though a page is never in the navigation bar. A compound of a state no element
// is in when the page is read (`.menu:hover`, NEVER) is matched outside by none either, and neither
// is one naming the themes' chrome (CHROME) as what holds the rest (before ` ` or `>`): a page is
// never inside the navigation, the sidebar, the table of contents or the footer of Mintlify's,
// Docusaurus's, Material's or the Sphinx themes' layouts, and a site's CSS hides there most
// (`#sidebar li:first-child` would otherwise hide every list's first item).
const FIRST_CHILD = {type: 'PseudoClass', name: 'first-child'}
// What holds the page's top level: the `<body>`, a VitePress page's wrapper (applyStylesheets).
const PAGE_PROPERTY = 'dataDocschatPage'
const BODY = [{type: 'TagName', name: 'body'}]
const PAGE_TOP = [{type: 'TagName', name: 'div'}, {type: 'Attribute', name: 'data-docschat-page'}]
let pageTop = BODY
const CHROME = /^(?:navbar|sidebar|menu|footer|table-of-contents|toc|pagination|topbar|md-(?:header|sidebar|nav|footer|tabs|search)|sphinxsidebar|related|bd-(?:sidebar|header|footer)|wy-nav|theme-doc-(?:sidebar|toc)|DocSearch)(?:$|[-_])/
const chrome = (items) => items.some((item) => (item.type === 'ClassName' || item.type === 'Id') && CHROME.test(item.name))
//
// A chain matches only what its tail after a descendant combinator matches: that tail stands for
// the chain and the tails before it (`.a .b .c` is read as `.c` alone), so the rules' tails cost
// no more walks than the rules did (2,000 rules `.nav .item .c` on 2,000 elements: 5 s of CPU as
// three chains each, past the page time limit on a busy machine; 0.3 s so, against 2 s before).
function withOutside(chain) {
  let chains = [chain]
  for (let rule = chain.nestedRule, before = chain; rule; before = rule, rule = rule.nestedRule) {
    if (before.items.includes(NOTHING) || (chrome(before.items) && (rule.combinator === undefined || rule.combinator === '>'))) break
    // A compound of a scoped rule naming the page's scope attribute matches the page's elements only.
    if (before.items.some((item) => item.type === 'Attribute' && item.name === SCOPE)) break
    if (rule.combinator === undefined) chains = [rule]
    else {
      const items = rule.combinator === '+' ? [...rule.items, FIRST_CHILD] : rule.items
      chains.push({type: 'Rule', items: pageTop, nestedRule: {...rule, items, combinator: '>'}})
    }
  }
  return chains
}

// The page's depth, its most element children of one parent, and its elements.
function shape(node, depth = 0, found = {depth: 0, siblings: 0, elements: 0}) {
  const children = (node.children || []).filter((child) => child.type === 'element')
  found.depth = Math.max(found.depth, depth)
  found.siblings = Math.max(found.siblings, children.length)
  found.elements += children.length
  for (const child of children) shape(child, depth + 1, found)
  return found
}

// A selector whose matching stays within a budget: hast-util-select carries, into each element, a
// copy of a rule waiting for its next compound per ancestor (or earlier sibling, for `~`) that
// matched the one before, and checks each copy that matches against every result so far: `.x .x`
// costs about depth^3 on a page of nested `.x`, and `.x .x .x .x` on a deep page ran V8 out of
// memory. Past 50 million (about 3 s), the selector's leading compounds are dropped (`.a .b .c` is
// read as `.b .c`, then `.c`): it matches more, never less.
//
// `:is()`, `:not()` and `:has()` walk what the element holds, at a cost growing with the depth
// (`.x:not(.y)` took 0.2 s on 100 nested `.x`, 10 s on 300): on a page deeper than 60 they are
// dropped from the selector (a test dropped: it matches more, never less).
function bounded(chain, depth, siblings, elements) {
  if (depth > 60) chain = withoutWalks(chain)
  let cost = elements
  for (let rule = chain.nestedRule; rule; rule = rule.nestedRule) {
    cost *= rule.combinator === '~' ? siblings : rule.combinator === undefined ? depth : 1
  }
  if (cost > elements) cost *= Math.max(depth, siblings) // the results a match is checked against
  return cost > 5e7 && chain.nestedRule ? bounded({...chain.nestedRule, combinator: undefined}, depth, siblings, elements) : chain
}

function withoutWalks(rule) {
  const items = rule.items.filter((item) => !(item.type === 'PseudoClass' && item.argument && item.argument.type === 'Selector'))
  return {...rule, items: items.length ? items : [ALWAYS], nestedRule: rule.nestedRule && withoutWalks(rule.nestedRule)}
}

function codeSpan(content) {
  const longest = Math.max(0, ...(content.match(/`+/g) || []).map((run) => run.length))
  const ticks = '`'.repeat(longest + 1)
  const pad = content.startsWith('`') || content.endsWith('`') ? ' ' : ''
  return ticks + pad + content + pad + ticks
}

function fenced(language, content) {
  const longest = Math.max(2, ...(content.match(/`+/g) || []).map((run) => run.length))
  const ticks = '`'.repeat(longest + 1)
  const body = content.endsWith('\n') || !content ? content : content + '\n'
  return ticks + language + '\n' + body + ticks
}

const HEADINGS = {h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6}

function text(node) {
  return toText(node, {whitespace: 'pre'})
}

// The node without the Markdown prepare() wrote: its text is what the browser shows.
function unmarked(node) {
  if (!node.children) return node
  const children = []
  for (const child of node.children) {
    if (!child.data || !child.data.mark) children.push(unmarked(child))
    else if (child.data.shown !== undefined) children.push(textNode(child.data.shown))
  }
  return {...node, children}
}

function oneLine(value) {
  return value.split('\n').map((line) => line.trim()).join(' ').trim()
}

function hasBlock(node) {
  return (node.children || []).some((child) => child.type === 'element' && (HTML_BLOCKS.has(child.tagName) || hasBlock(child)))
}

// The element's blocks: [kind, text, level] where kind is heading, code (a fence or a whole
// callout) or text.
function blocks(node, out) {
  let run = []
  const flush = () => {
    if (run.length) out.push(['text', text({type: 'element', tagName: 'p', properties: {}, children: run}), 0])
    run = []
  }
  for (const child of node.children || []) {
    if (child.type !== 'element' || !(HTML_BLOCKS.has(child.tagName) || hasBlock(child))) {
      run.push(child)
      continue
    }
    flush()
    const tag = child.tagName
    const properties = child.properties || {}
    if (HEADINGS[tag]) {
      const heading = oneLine(text(child)) // one line: its anchor is made from it
      if (properties.dataTitle !== undefined) out.push(['text', '**' + heading + '**', 0]) // a title in a directive
      // The heading as Markdown (the chunk's text), and as shown: its section's name and anchor.
      else if (heading) {
        out.push(['heading', '#'.repeat(HEADINGS[tag]) + ' ' + heading, HEADINGS[tag], oneLine(text(unmarked(child))),
          ...(typeof properties.dataAstroText === 'string' ? [properties.dataAstroText] : [])])
      }
    } else if (tag === 'pre') {
      const code = child.children.find((c) => c.type === 'element' && c.tagName === 'code')
      const classes = (code && code.properties.className) || []
      const language = (classes.find((c) => String(c).startsWith('language-')) || '').slice(9)
      out.push(['code', fenced(/^[\w.+#-]{1,40}$/.test(language) ? language : '', text(child)), 0])
    } else if (tag === 'table') {
      const rows = []
      const captions = [] // shown above the table (Chromium's innerText; the `css-table-caption` probe)
      let header = true
      const walk = (element) => {
        for (const row of element.children || []) {
          if (row.type !== 'element') continue
          if (row.tagName === 'caption') captions.push(oneLine(text(row)))
          else if (row.tagName === 'tr') {
            const cells = row.children.filter((c) => c.type === 'element' && (c.tagName === 'td' || c.tagName === 'th'))
            rows.push('| ' + cells.map((c) => text(c).replace(/\n/g, ' ').replace(/\|/g, '\\|').trim()).join(' | ') + ' |')
            if (header) rows.push('|' + '---|'.repeat(cells.length))
            header = false
          } else walk(row)
        }
      }
      walk(child)
      if (captions.some(Boolean)) out.push(['text', captions.filter(Boolean).join(' '), 0])
      out.push(['text', rows.join('\n'), 0])
    } else if (tag === 'ul' || tag === 'ol') {
      let number = Number(properties.start || 1)
      const loose = child.children.some((li) => li.type === 'element' && li.children.some((c) => c.type === 'element' && c.tagName === 'p'))
      for (const item of child.children) {
        if (item.type !== 'element') continue
        const marker = tag === 'ol' ? number++ + '. ' : '- '
        const inner = []
        blocks(item, inner)
        const indent = ' '.repeat(marker.length)
        finish(inner).forEach(([kind, value], index) => {
          const lines = value.split('\n').map((line, at) => (at === 0 ? (index === 0 ? marker : indent) : line ? indent : '') + line)
          const written = lines.join('\n')
          const previous = out[out.length - 1]
          if (index === 0 && !loose && kind !== 'code' && previous && previous[0] === 'text' && previous[3] === 'item') {
            previous[1] += '\n' + written
          } else out.push([kind === 'code' ? 'code' : 'text', written, 0, 'item'])
        })
      }
    } else if (tag === 'blockquote') {
      const inner = []
      blocks(child, inner)
      const quoted = finish(inner).map((b) => b[1]).join('\n\n')
      out.push(['text', quoted.split('\n').map((line) => (line ? '> ' + line : '>')).join('\n'), 0])
    } else if (properties.dataCallout !== undefined) {
      const inner = []
      blocks(child, inner)
      const title = properties.dataTitle ? ' ' + properties.dataTitle : ''
      // A heading in a callout is its title, in bold, as the site shows it (no section).
      const body = finish(inner).map(([kind, value, level]) => (kind === 'heading' ? '**' + value.slice(level + 1) + '**' : value)).join('\n\n')
      out.push(['code', [':::' + properties.dataCallout + title, body, ':::'].join('\n'), 0])
    } else if (tag === 'hr') {
      // a thematic break shows no text
    } else if (hasBlock(child)) {
      blocks(child, out)
    } else {
      out.push(['text', text(child), 0])
    }
  }
  flush()
}

// Text the page shows as text (a `# comment` line of a paragraph, a fence line in HTML) is written
// escaped, as Markdown does, so that neither the chunker nor the page view takes it for a heading,
// a fence or a callout.
function asText(value) {
  return value.replace(/^([ \t]*)(?=#|`{3}|~{3}|:{3})/gm, '$1\\')
}

// Markdown's text escaped as micromark writes it (`>` too: hast-util-to-html leaves it, and a
// `-->` written as text would close a comment raw HTML opened).
function escapeText(node) {
  for (const child of node.children || []) {
    if (child.type === 'text') {
      child.type = 'raw'
      child.value = child.value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
    } else escapeText(child)
  }
}

// The blocks with their lines' trailing spaces gone, at most one blank line in a row, empty ones
// dropped, text escaped.
function tidy(value) {
  return value.replace(/(?<=\S)\u0001+(?=[^\s.,;:!?)\]}'"’”\u0001])/g, ' ').replace(/\u0001/g, '').split('\n').map((line) => line.trimEnd()).join('\n').replace(/\n{3,}/g, '\n\n').trim()
}

function finish(out) {
  const result = []
  for (const [kind, value, level, shownText, ...slugged] of out) {
    if (kind === 'code') {
      result.push([kind, value, level])
      continue
    }
    const trimmed = tidy(value)
    if (!trimmed) continue
    if (kind === 'heading') result.push([kind, trimmed, level, tidy(shownText), ...slugged])
    else result.push([kind, asText(trimmed), level])
  }
  return result
}

// A tree the browser's parser would rebuild as it is: no raw HTML, only these elements, nested as
// the parser nests them (no block in a `p`, no link in a link, no heading in a heading, a `li` in a
// list, a table of rows of cells, a `pre` opening on its `code`, nothing in a void element), and
// no character the parser rewrites (CR, NUL, a lone surrogate). Written out and parsed again, it
// reads the same (tests/test_page_reader.py compares both ways), so the round trip is skipped: a
// tenth of a page's time.
const AS_IS = new Set(['a', 'b', 'blockquote', 'br', 'code', 'del', 'div', 'em', 'h1', 'h2', 'h3', 'h4', 'h5',
  'h6', 'hr', 'i', 'img', 'input', 'kbd', 'li', 'ol', 'p', 'pre', 's', 'section', 'span', 'strong', 'sub', 'sup',
  'table', 'tbody', 'td', 'th', 'thead', 'tr', 'u', 'ul'])
const CLOSES_P = new Set(['blockquote', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'li', 'ol', 'p', 'pre',
  'section', 'table', 'ul'])
const VOID = new Set(['br', 'hr', 'img', 'input'])
const TABLE_PARTS = {table: ['thead', 'tbody'], thead: ['tr'], tbody: ['tr'], tr: ['td', 'th']}
const REWRITTEN = /[\r\0]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

function parsedAsIs(node, inside) {
  for (const child of node.children || []) {
    if (child.type === 'text') {
      if (REWRITTEN.test(child.value)) return false
      if (TABLE_PARTS[node.tagName] && !/^[\t\n\f ]*$/.test(child.value)) return false
      continue
    }
    if (child.type !== 'element') return false
    const tag = child.tagName
    if (!AS_IS.has(tag) || (CLOSES_P.has(tag) && inside.p) || (tag === 'a' && inside.a) || (HEADINGS[tag] && inside.heading)) {
      return false
    }
    if (tag === 'li' && node.tagName !== 'ul' && node.tagName !== 'ol') return false
    const parts = TABLE_PARTS[node.tagName]
    if ((parts && !parts.includes(tag)) || (!parts && ['thead', 'tbody', 'tr', 'td', 'th'].includes(tag))) return false
    if ((VOID.has(tag) && child.children && child.children.length) ||
        (tag === 'pre' && !(child.children[0] && child.children[0].tagName === 'code'))) {
      return false
    }
    for (const value of Object.values(child.properties || {})) {
      if ([].concat(value).some((item) => typeof item === 'string' && REWRITTEN.test(item))) return false
    }
    const within = {p: inside.p || tag === 'p', a: inside.a || tag === 'a', heading: inside.heading || Boolean(HEADINGS[tag])}
    if (!parsedAsIs(child, within)) return false
  }
  return true
}

function shown(tree, counts, shortcuts = true, siteCss = '', extra = {}, vue = null) {
  let hast = tree
  if (!shortcuts || !parsedAsIs(tree, {})) {
    escapeText(tree)
    // Written out as the page's HTML and parsed again as a browser parses it (parse5): raw HTML's
    // state (an unclosed comment, `<script>`, an attribute) runs on over the HTML Markdown made,
    // as on the site.
    let html = toHtml(tree, {allowDangerousHtml: true})
    if (vue) html = selfClosed(html)
    hast = fromParse5(parseFragment(html))
    if (vue) {
      scopeElements(hast) // before Vue renders: what `v-html` sets is not the template's, and unscoped
      renderVue(hast, (markup) => fromParse5(parseFragment(markup)).children, vue.slots || {}, vue.frontmatter)
    }
    if (/<(?:switch|maction|semantics)/i.test(html)) oneChildShown(hast, false) // only on a page that has one
    if (/<svg/i.test(html)) svgUnrendered(hast)
    if (/<math/i.test(html)) mathTokensApart(hast)
  }
  const links = []
  linksFound = links
  try {
    applyStylesheets(hast, siteCss, vue && (vue.styles || []))
  } finally {
    linksFound = null
  }
  prepare(hast, false, false)
  const out = []
  blocks(hast, out)
  return JSON.stringify({blocks: finish(out), unknown: counts, ...(links.length ? {links} : {}), ...extra})
}
// The elements of a VitePress page's template, each of which Vue renders with the page's scope
// attribute (the root of a component the page uses too: `<Badge>`'s; the `probe/scoped` page).
function scopeElements(node) {
  for (const child of [...(node.children || []), ...(node.content ? [node.content] : [])]) {
    if (child.type === 'element') child.properties = {...child.properties, [SCOPE_PROPERTY]: ''}
    scopeElements(child)
  }
}

// Chromium's innerText puts each MathML token (`mi`, `mn`, `mo`, `mtext`, `ms`) on a line of its
// own: read apart (a space between two words), not glued (`<mtext>if</mtext><mi>x</mi>` was "ifx").
const MATH_TOKENS = new Set(['mi', 'mn', 'mo', 'mtext', 'ms'])
function mathTokensApart(node) {
  for (const child of node.children || []) {
    if (child.type !== 'element') continue
    if (MATH_TOKENS.has(child.tagName)) child.children = [textNode(SOFT), ...child.children, textNode(SOFT)]
    else mathTokensApart(child)
  }
}

// An SVG `<switch>` renders only the first of its child elements whose conditions hold (Chromium,
// the `css-svg-switch` probe): not its text, not the elements after it, even when the chosen one
// is not displayed or is a `<desc>`. A MathML `<maction>` or `<semantics>` renders its first child
// only (the `css-svg-mathml-unrendered` probe). `inSvg`: `node`'s children are SVG elements (under `<svg>`,
// not in a `<foreignObject>`'s HTML).
function oneChildShown(node, inSvg) {
  for (const child of node.children || []) {
    if (child.type !== 'element') continue
    if ((inSvg && child.tagName === 'switch') || child.tagName === 'maction' || child.tagName === 'semantics') {
      const holds = child.tagName === 'switch' ? conditionsHold : () => true
      const chosen = child.children.find((element) => element.type === 'element' && holds(element.properties || {}))
      child.children = chosen ? [chosen] : []
    }
    oneChildShown(child, child.tagName === 'svg' || (inSvg && child.tagName !== 'foreignObject'))
  }
}

// What of SVG Chromium renders (the `css-svg-rendering` probe): a container (`svg`, `g`, `a`,
// `switch`, and the ones innerText reads though they paint nothing: `defs`, `symbol`, `marker`,
// `mask`, `clipPath`, `pattern`) renders its containers, `text` and `foreignObject` elements, not
// its own text nor any other element's content (a shape's, `use`'s, `image`'s, an unknown
// element's, a `tspan` outside a `text`); a `text` renders its text, `tspan`, `textPath` and `a`,
// not a nested `text`, `g` or `foreignObject`. The elements other rules judge (`title`, `desc`,
// `metadata`, `style`, `script`, gradients, filters) are left to them.
const SVG_CONTAINERS = new Set(['svg', 'g', 'a', 'switch', 'defs', 'symbol', 'marker', 'mask', 'clipPath', 'pattern'])
const SVG_IN_TEXT = new Set(['tspan', 'textPath', 'a'])
const SVG_OTHERS = new Set(['title', 'desc', 'metadata', 'style', 'script', 'linearGradient', 'radialGradient', 'filter'])

function svgRendered(node, inText) {
  node.children = (node.children || []).filter((child) => {
    if (child.type === 'text') return inText || !child.value.trim()
    if (child.type !== 'element') return true
    if (SVG_OTHERS.has(child.tagName) || child.tagName === 'foreignObject' && !inText) return true // HTML inside
    const text = inText ? SVG_IN_TEXT.has(child.tagName) : child.tagName === 'text'
    if (!text && (inText || !SVG_CONTAINERS.has(child.tagName))) return false
    svgRendered(child, text)
    return true
  })
}

// SVG's conditional attributes hold on every SVG element, not only on a `<switch>`'s children:
// Chromium renders no element whose `systemLanguage` or `requiredExtensions` fail, nor what it
// holds, the outermost `<svg>` and a `<foreignObject>` included (the `css-svg-conditions` probe).
// An SVG animation (`<set>`, `<animate>`) of `display` or `visibility` to a hiding value hides its
// target (its parent, or the element its `href` names) as SMIL applies it from its start (the
// `css-svg-animation` probe); whatever its `begin`, as it hides at some time: more hidden, never
// less. Its target is left out whole (a descendant's `visibility: visible` is not read: the same).
function svgUnrendered(root) {
  const targets = new Set()
  const animated = new Set()
  const walk = (node, inSvg) => {
    for (const child of node.children || []) {
      if (child.type !== 'element') continue
      const svg = inSvg || child.tagName === 'svg'
      const properties = child.properties || {}
      if (svg && (child.tagName === 'set' || child.tagName === 'animate') && animationHides(properties)) {
        const href = [properties.href, properties.xLinkHref].find((value) => typeof value === 'string' && value.trim())
        if (href) targets.add(href.trim().replace(/^#/, ''))
        else animated.add(node)
      }
      walk(child, svg && child.tagName !== 'foreignObject')
    }
  }
  walk(root, false)
  const drop = (node, inSvg) => {
    node.children = (node.children || []).filter((child) => {
      if (child.type !== 'element') return true
      const svg = inSvg || child.tagName === 'svg'
      const id = child.properties && child.properties.id
      if (animated.has(child) || (id !== undefined && targets.has(String(id)))) return false
      if (svg && !conditionsHold(child.properties || {})) return false
      if (child.tagName === 'svg' && !inSvg) svgRendered(child, false) // the outermost: what it renders
      drop(child, svg && child.tagName !== 'foreignObject')
      return true
    })
  }
  drop(root, false)
}

// Whether an SVG animation sets `display: none` or `visibility: hidden|collapse` at some time.
function animationHides(properties) {
  const name = String(properties.attributeName || '').trim().toLowerCase()
  if (name !== 'display' && name !== 'visibility') return false
  const values = [properties.to, properties.from, properties.values].filter((value) => value !== undefined && value !== null)
    .flatMap((value) => String(value).split(';')).map((value) => value.trim().toLowerCase())
  return values.some((value) => hiding(name, value))
}

// SVG's conditional attributes as Chromium's SVGTests evaluates them for an English reader (the
// recording's browser, en-US): `systemLanguage` holds when one of its languages starts with `en`
// (an empty one never holds), `requiredExtensions` when it names only the XHTML and MathML
// namespaces; `requiredFeatures` is ignored (SVG 2).
function conditionsHold(properties) {
  const words = (value, separator) => [].concat(value).flatMap((v) => String(v).split(separator)).map((w) => w.trim()).filter(Boolean)
  if (properties.systemLanguage !== undefined && properties.systemLanguage !== null &&
      !words(properties.systemLanguage, ',').some((language) => language.slice(0, 2) === 'en')) return false
  const extensions = properties.requiredExtensions === undefined || properties.requiredExtensions === null ? [] : words(properties.requiredExtensions, /\s+/)
  return extensions.every((name) => name === 'http://www.w3.org/1999/xhtml' || name === 'http://www.w3.org/1998/Math/MathML')
}

function failure(error) {
  const place = error.place && (error.place.start || error.place)
  return JSON.stringify({error: String(error.reason || error.message || error), line: place ? place.line : null, column: place ? place.column : null})
}

// GFM with only the constructs the page has the characters to start. micromark tries a construct
// at every character it may begin with: the email autolink at every word, the table at every line,
// a fifth of a page's time. One that cannot match fails and leaves no trace, so dropping it
// changes nothing (design/page-reader.md): an email needs `@`, a www link `www`, a protocol link
// `http`, a footnote `[^`, strikethrough `~`, a table a delimiter row (`-` with `|` or `:`).
const DELIMITER_ROW = /(?:[|:][ \t|:-]*-|-[ \t|:-]*[|:])[ \t|:-]*$/m

function gfmCan(value) {
  return {
    emailAutolink: value.includes('@'),
    wwwAutolink: /www/i.test(value),
    protocolAutolink: /http/i.test(value),
    gfmFootnoteDefinition: value.includes('[^'),
    gfmFootnoteCall: value.includes('[^'),
    gfmPotentialFootnoteCall: value.includes('[^'),
    strikethrough: value.includes('~'),
    table: DELIMITER_ROW.test(value)
  }
}

// Each set of constructs built once (micromark reads an extension and never changes it).
const GFM_FOR = new Map()

function gfmFor(value) {
  const can = gfmCan(value)
  const key = JSON.stringify(can)
  if (GFM_FOR.has(key)) return GFM_FOR.get(key)
  const extension = gfm()
  for (const field of ['document', 'flow', 'text', 'insideSpan']) {
    for (const [code, constructs] of Object.entries(extension[field])) {
      const kept = [].concat(constructs).filter((construct) => can[construct.name] !== false)
      if (kept.length) extension[field][code] = kept
      else delete extension[field][code]
    }
  }
  GFM_FOR.set(key, extension)
  return extension
}

// @docusaurus/utils' admonitionTitleToDirectiveLabel's expression for these keywords (it joins them
// unescaped; escaped here, so that a keyword is never read as an expression).
const legacyAdmonitions = new Map()

function legacyAdmonition(keywords) {
  const key = keywords.join('\n')
  if (!legacyAdmonitions.has(key)) {
    const names = keywords.map((k) => k.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join('|')
    legacyAdmonitions.set(key, new RegExp(
      `^(?<quote>(?:> ?)*)(?<indentation>(?: +|\\t+))?(?<directive>:{3,}(?:${names})) +(?<title>.*)$`, 'gm'))
  }
  return legacyAdmonitions.get(key)
}

// Docusaurus 3's default admonition keywords (DefaultAdmonitionOptions of @docusaurus/mdx-loader).
const DOCUSAURUS_ADMONITIONS = ['secondary', 'info', 'success', 'danger', 'note', 'tip', 'warning', 'important', 'caution']

// Docusaurus's magic comments (themeConfig.prism.magicComments' directives; app/corpus/reader.py's
// Admonitions), its default ones when not said; none when the page is not a Docusaurus page.
const DOCUSAURUS_MAGIC_COMMENTS = ['highlight-next-line', 'highlight-start', 'highlight-end']
function magicComments(options) {
  if (!options || options.codeTitles !== 'docusaurus') return []
  return Array.isArray(options.magicComments) ? options.magicComments.filter((d) => typeof d === 'string' && d) : DOCUSAURUS_MAGIC_COMMENTS
}

// What Docusaurus makes a box of on the page: its keywords (app/corpus/reader.py's Admonitions),
// null when the page is not a Docusaurus page (every container directive is a box).
function admonitionKeywords(options) {
  if (!options || options.codeTitles !== 'docusaurus') return null
  return Array.isArray(options.admonitions) ? options.admonitions.filter((k) => typeof k === 'string') : DOCUSAURUS_ADMONITIONS
}

// GFM's literal autolinks (`https://…`, `www.…`, `a@b.c` in text) are found on the tree after
// micromark, by mdast-util-gfm-autolink-literal's transform: four walks of the tree, a regular
// expression each, a tenth of a Mintlify page's time. Each expression needs `http://`, `https://`
// or `www.` (any case), or `@`, in a text node: on a tree with none it finds nothing and changes
// nothing, so the transform is not run there (tests/test_page_reader.py compares with it run).
const AUTOLINK_CAN = /@|https?:\/\/|www\./i

function mayAutolink(node) {
  if (node.type === 'text') return AUTOLINK_CAN.test(node.value)
  return (node.children || []).some(mayAutolink)
}

function gfmMdast(shortcuts) {
  const gated = (transform) => (tree) => (mayAutolink(tree) ? transform(tree) : undefined)
  return gfmFromMarkdown().map((extension) => (shortcuts && extension.transforms
    ? {...extension, transforms: extension.transforms.map(gated)} : extension))
}

// Built once: each mdxjs() makes a new acorn parser class (Parser.extend), and the expressions of
// every page were parsed by a class V8 had not seen yet.
let MDXJS = null

// The micromark extensions and their mdast builders for a page of these options; `value` as read
// (Docusaurus's `{#id}` escaped for MDX). shortcuts: false reads the long way (GFM whole, always
// parsed again), for tests/test_page_reader.py.
function syntax(value, options) {
  const {mdx = false, math: withMath = false, directives = false, comments = false, shortcuts = true} = options || {}
  const extensions = [shortcuts ? gfmFor(value) : gfm()]
  const mdastExtensions = [gfmMdast(shortcuts)]
  if (withMath) {
    extensions.push(math())
    mdastExtensions.push(mathFromMarkdown())
  }
  const keywords = admonitionKeywords(options)
  if (directives && keywords && keywords.length && options.legacyTitles !== false) {
    // Docusaurus's legacy `:::note Title`, which remark-directive does not read, as Docusaurus
    // reads it: @docusaurus/utils' admonitionTitleToDirectiveLabel, run by its mdx-loader on every
    // page (mdx1Compat.admonitions, on by default), turns it into `:::note[Title]` for the
    // admonition keywords of the page's docs plugin (none: `admonitions: false`, no rewrite).
    value = value.replace(legacyAdmonition(keywords), '$<quote>$<indentation>$<directive>[$<title>]')
  }
  if (directives) {
    // Container directives only (`:::note`): text (`:name`) and leaf (`::name`) ones would
    // swallow ordinary text.
    const syntax = directive()
    extensions.push({flow: {58: [syntax.flow[58][0]]}})
    mdastExtensions.push(directiveFromMarkdown())
  }
  if (mdx) {
    // `## Title {#id}`: Docusaurus's heading id, read before MDX sees it (acorn refuses `#id`);
    // escaped, its braces are text, and the chunker takes the id from the heading.
    value = value.replace(/^([ \t]{0,3}#{1,6}[ \t].*?)\{(#[\w:.-]+)\}([ \t]*)$/gm, '$1\\{$2\\}$3')
    extensions.push(MDXJS || (MDXJS = mdxjs()))
    mdastExtensions.push(mdxFromMarkdown())
  }
  if (comments) {
    // Docusaurus's `markdown.mdx1Compat.comments` (on by default): `<!-- … -->` in MDX is a
    // comment, read by the extension Docusaurus uses (@slorber/remark-comment); it leaves no node.
    extensions.push(comment)
    mdastExtensions.push(commentFromMarkdown())
  }
  return {value, extensions, mdastExtensions}
}

// The tree `uses` read last, kept for the `parse` that follows it: compose reads an MDX page's
// snippets first, then the page, which most often pastes none and is read again as it was. The same
// text read with the same syntax gives the same tree, and `uses` only reads it, so micromark runs
// once (design/page-reader.md, session 27). Taken by the next `parse`, whatever its page.
let usesTree = null

function treeKey(page, value, options) {
  const {mdx = false, math = false, directives = false, comments = false, shortcuts = true} = options || {}
  return JSON.stringify([value, Boolean(mdx), Boolean(math), Boolean(directives), Boolean(comments),
    shortcuts !== false && gfmCan(page)])
}

function takeTree(page, value, options) {
  const kept = usesTree
  usesTree = null
  return kept && kept.key === treeKey(page, value, options) ? kept.tree : null
}

export function parse(page, options) {
  const {value, extensions, mdastExtensions} = syntax(page, options)
  const mdx = Boolean(options && options.mdx)
  const shortcuts = !(options && options.shortcuts === false)
  try {
    const tree = takeTree(page, value, options) || fromMarkdown(value, {extensions, mdastExtensions})
    // Components with no rule (name → uses); `hiding`: site components read as hiding their
    // children (not an enumerable key: `counts` is sent as the unknown ones).
    const counts = Object.defineProperty({}, 'hiding', {value: {}})
    setextAsText(tree, value)
    if (!mdx) mdxCommentsInText(tree)
    else unravel(tree)
    const codeTitles = (options && options.codeTitles) || ''
    if (codeTitles === 'docusaurus' && Array.isArray(options.npm2yarn)) {
      npm2yarn(tree, options.npm2yarn.filter((name) => typeof name === 'string'))
    }
    if (codeTitles === 'docusaurus' && Array.isArray(options.tabBlocks)) {
      tabBlocks(tree, options.tabBlocks.filter((pair) => Array.isArray(pair) && pair.length === 2))
    }
    const wanted = [] // modules of the site the page imports components from, not given
    const local = localComponents(tree, options && options.modules, wanted, codeTitles === 'mintlify')
    local.astro = codeTitles === 'starlight' // an Astro page: `set:html`, `set:text`
    local.astroHeadings = local.astro && mdx // its MDX headings' ids (astroHeadingText)
    const layout = mdx ? pageLayout(tree, local) : null
    if (layout && !layout.children) tree.children = [] // the layout shows none of the page
    const bound = codeTitles === 'mintlify' ? pageBindings(tree) : null // a Mintlify page's (jsxHandler)
    // An Astro (Starlight) MDX page's `frontmatter`, unless the page binds the name itself.
    const frontmatter = codeTitles === 'starlight' && mdx && options.frontmatter && typeof options.frontmatter === 'object' &&
      !local.has('frontmatter') ? options.frontmatter : null
    const hast = toHast(tree, {allowDangerousHtml: true, handlers: HANDLERS(counts, value, codeTitles, local, admonitionKeywords(options), bound, magicComments(options),
      Boolean(options && options.mermaid), frontmatter),
      passThrough: []})
    if (local.astro) footnotesAnchor(hast)
    return shown(hast, counts, shortcuts, (options && options.css) || '',
      {...(wanted.length ? {modules: wanted} : {}), ...(Object.keys(counts.hiding).length ? {hiding: counts.hiding} : {})})
  } catch (error) {
    return failure(error)
  }
}

// Astro's build keeps the id mdast-util-to-hast gives the footnotes' heading, `footnote-label`:
// the section's anchor, not its text's slug (`footnotes`). dataAstroText is slugged as written.
function footnotesAnchor(hast) {
  const section = (hast.children || []).find((c) => c.type === 'element' && c.tagName === 'section' && c.properties && c.properties.dataFootnotes !== undefined)
  const heading = section && section.children.find((c) => c.type === 'element' && c.properties && c.properties.id === 'footnote-label')
  if (heading) heading.properties = {...heading.properties, dataAstroText: 'footnote-label'}
}

// With {vue: true}, the HTML is a VitePress page's: rendered as Vue renders it first (vue-template.js),
// `slots` the slots each component the page uses renders ({name: ['default', …]}), `frontmatter` the
// page's front matter (`{{ $frontmatter.title }}`), `styles` its `<style>` blocks ([{css, scoped}]:
// VitePress takes them out of the page's HTML as Vue's SFC blocks).
export function fromHtml(value, css = '', options = {}) {
  try {
    return shown({type: 'root', children: [{type: 'raw', value}]}, {}, true, css, {},
      options && options.vue ? {slots: options.slots || {}, frontmatter: options.frontmatter || {}, styles: options.styles || []} : null)
  } catch (error) {
    return failure(error)
  }
}

// Where an MDX page uses snippets, read from its tree (so an example in code is never one): its
// default imports [name, from], its ESM blocks [start, end], its components [name, start, end,
// attributes, inline], its `{name}` expressions [name, start, end] and a template's `${name}`
// placeholders [name, start, end]; offsets into `text`, the
// page as read. app/corpus/snippets.py pastes the snippets there.
export function uses(page, options) {
  const {value, extensions, mdastExtensions} = syntax(page, {...options, mdx: true})
  const found = {text: value, imports: [], esm: [], esmDefault: [], esmNames: [], elements: [], expressions: [], placeholders: [], layoutHides: false}
  // Offsets count UTF-16 units here and code points in Python: told apart only past an astral character.
  const astral = /[\uD800-\uDFFF]/.test(value)
  const point = (offset) => (astral ? Array.from(value.slice(0, offset)).length : offset)
  const walk = (node) => {
    const at = node.position && [point(node.position.start.offset), point(node.position.end.offset)]
    if (node.type === 'mdxjsEsm') {
      found.esm.push(at)
      found.esmNames.push(((node.data && node.data.estree && node.data.estree.body) || []).flatMap(boundNames))
      found.esmDefault.push(((node.data && node.data.estree && node.data.estree.body) || []).some((statement) =>
        statement.type === 'ExportDefaultDeclaration' || (statement.type === 'ExportNamedDeclaration' &&
          statement.specifiers.some((specifier) => (specifier.exported.name ?? specifier.exported.value) === 'default'))))
      for (const statement of (node.data && node.data.estree && node.data.estree.body) || []) {
        if (statement.type !== 'ImportDeclaration') continue
        for (const specifier of statement.specifiers) {
          if (specifier.type === 'ImportDefaultSpecifier') found.imports.push([specifier.local.name, String(statement.source.value)])
        }
      }
    } else if ((node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') && node.name && /^[A-Z]/.test(node.name)) {
      found.elements.push([node.name, ...at, attributeValues(node), node.type === 'mdxJsxTextElement'])
    } else if (node.type === 'mdxFlowExpression' || node.type === 'mdxTextExpression') {
      const body = node.data && node.data.estree && node.data.estree.body
      const expression = body && body.length === 1 && body[0].type === 'ExpressionStatement' ? body[0].expression : null
      if (expression && expression.type === 'Identifier') found.expressions.push([expression.name, ...at])
      // A template's `${name}`: Mintlify binds a snippet's props as variables before the page runs
      // (@mintlify/common's replaceVariablesWithProps), so the placeholder shows the prop's value
      // (OpenHands' `<CodeBlock>{`uv run python ${path_to_script}`}</CodeBlock>`). The span between
      // two quasis is the placeholder with its `${` and `}`.
      if (expression && expression.type === 'TemplateLiteral') {
        expression.expressions.forEach((placeholder, index) => {
          if (placeholder.type !== 'Identifier') return
          found.placeholders.push([placeholder.name, point(expression.quasis[index].end), point(expression.quasis[index + 1].start)])
        })
      }
    }
    for (const child of node.children || []) walk(child)
  }
  usesTree = null
  try {
    const tree = fromMarkdown(value, {extensions, mdastExtensions})
    walk(tree)
    // A snippet whose own layout never shows its children shows nothing where it is pasted.
    const layout = pageLayout(tree, localComponents(tree, null, []))
    found.layoutHides = Boolean(layout && !layout.children)
    usesTree = {key: treeKey(page, value, {...options, mdx: true}), tree}
    return JSON.stringify(found)
  } catch (error) {
    return failure(error)
  }
}

// The names an ESM statement binds in the module (imports, declarations, exported or not).
// The names a page's ESM binds: imports, declarations, `export {…}`.
function pageBindings(tree) {
  const names = new Set()
  for (const node of tree.children || []) {
    for (const statement of (node.type === 'mdxjsEsm' && node.data && node.data.estree && node.data.estree.body) || []) {
      boundNames(statement).forEach((name) => names.add(name))
      for (const specifier of statement.specifiers || []) names.add(specifier.exported ? specifier.exported.name ?? specifier.exported.value : specifier.local.name)
    }
  }
  return names
}

function boundNames(statement) {
  if (statement.type === 'ImportDeclaration') return statement.specifiers.map((specifier) => specifier.local.name)
  const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement
  if (!declaration) return []
  if (declaration.id && declaration.id.name) return [declaration.id.name]
  const names = []
  walkEstree({type: 'Program', body: (declaration.declarations || []).map((each) => each.id)}, null, (node, parent) => {
    if (node.type === 'Identifier' && !(parent && parent.type === 'Property' && parent.key === node && !parent.shorthand)) names.push(node.name)
  })
  return names
}

// The blocks of a Mintlify API page generated from the operation `method path` of the spec
// openapiSpec loaded under `key` (src/openapi.js); each description is CommonMark (with math, as
// Mintlify renders it) read as any page is. A heading inside a field's description stays text:
// the page's sections are its own.
const PLAIN_LINE = /^[\p{L}(][^\\`*_{}[\]<>#|~$&@\n\r\u0001]*$/u

export function openapiPage(key, method, path, options) {
  try {
    // With the spec's text (a reader that no longer holds it, or another one): loaded first.
    if (options && typeof options.text === 'string' && !openapi().openapiLoaded(key)) {
      const loaded = JSON.parse(openapiSpec(key, options.text, options.file || ''))
      if (loaded.error) return JSON.stringify({error: loaded.error})
    }
    const read = (markdown, out, headings = false) => {
      // One line of words with no character Markdown, HTML or math gives a meaning to is its own
      // paragraph's text: most descriptions of a spec are, and micromark would take 1 ms each.
      const value = String(markdown).trim()
      if (PLAIN_LINE.test(value)) return out.push(['text', value, 0])
      const answer = JSON.parse(parse(value, {math: true}))
      for (const block of answer.blocks || []) out.push(block[0] === 'heading' && !headings ? ['text', block[3] || block[1], 0] : block)
    }
    // x-mint.content is the MDX body of the generated page: read as a Mintlify page is.
    const readMdx = (mdx, out) => {
      const answer = JSON.parse(parse(String(mdx), {mdx: true, math: true, codeTitles: 'mintlify'}))
      out.push(...(answer.blocks || []))
      return !answer.error
    }
    const page = openapi().openapiBlocks(key, method, path, (markdown, out) => read(markdown, out, out.length === 0),
      {description: options ? options.description : true, content: Boolean(options && options.content)},
      (value) => asText(tidy(value)), readMdx)
    return JSON.stringify(page)
  } catch (error) {
    return failure(error)
  }
}
