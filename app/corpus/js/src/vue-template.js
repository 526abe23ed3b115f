// A VitePress page's HTML as Vue renders it. VitePress compiles each page's HTML (markdown-it's)
// as the template of a Vue component: `{{ expression }}` shows the expression's value, `v-if`,
// `v-else-if`, `v-else`, `v-show` and `v-for` decide whether an element is rendered, `:hidden`,
// `:style`, `:class` (`v-bind:…`, `v-bind="object"`) set attributes from values, `v-text` and
// `v-html` replace an element's content, a `<template>` with a directive renders its content,
// `<Name … />` closes itself, and `v-pre` leaves an element as written (VitePress puts it on code
// blocks and `::: v-pre`). The `vue-template` page of tests/data/site-nav/vitepress, recorded from
// `vitepress build` (2.0.0-alpha.19) read in Chromium, holds each.
//
// A rule, not Vue: an expression names the page's `<script setup>`, the theme's globals and data
// loaders, code that runs only in the site's build (docschat never runs a repository's code). So
// expressions are evaluated from their literals only (acorn parses them; strings, numbers,
// booleans, null, undefined, template literals, arrays, objects, the operators on them), and what
// the reader cannot evaluate fails closed: an interpolation shows nothing, a condition or list
// renders nothing, a bound `hidden`, `style` or `class` hides (as a JSX page's `hidden={x}` does).
import {Parser} from 'acorn'

const UNKNOWN = Symbol('unknown')
// The page's globals a template may name that the reader knows: `$frontmatter` (the page's front
// matter). Set for one page by vueRendered's caller (renderVue).
let scope = {}
// Vue's own globals an expression may name (GLOBALS_ALLOWED of @vue/shared), the ones with a value.
const GLOBALS = {undefined, NaN, Infinity}
// HTML's void elements: `<br/>` is one element in HTML and in Vue alike.
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source',
  'track', 'wbr'])
const SELF_CLOSED = /<([A-Za-z][^\s/>]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/>/g
const CONDITIONS = ['v-if', 'v-else-if', 'v-else']
const FOR = /^\s*(?:\([^)]*\)|[^\s]+)\s+(?:in|of)\s+([\s\S]+)$/
const BIND = /^(?::|v-bind:|\.)([^.]+)/ // `:name`, `v-bind:name`, `.name` (a property), modifiers after a dot

// Vue's parser closes any element written `<Name … />` (a component, `<div/>`); the browser's only a
// void one: the HTML written out as Vue reads it, so what follows is not the element's content.
export function selfClosed(html) {
  return html.replace(SELF_CLOSED, (whole, name, attributes) =>
    VOID.has(name.toLowerCase()) ? whole : `<${name}${attributes}></${name}>`)
}

// The value of a template expression from its literals, UNKNOWN when it needs anything else;
// `partial`: an object or array may hold UNKNOWN entries (a bound style or class reads them apart).
export function evaluate(source, partial = false) {
  let node
  try {
    node = Parser.parseExpressionAt(source, 0, {ecmaVersion: 'latest'})
  } catch {
    return UNKNOWN
  }
  if (source.slice(node.end).trim()) return UNKNOWN
  const value = valueOf(node)
  return known(value) || (partial && value !== UNKNOWN) ? value : UNKNOWN
}

function known(value) {
  if (value === UNKNOWN) return false
  if (Array.isArray(value)) return value.every(known)
  if (value && typeof value === 'object') return Object.values(value).every(known)
  return true
}

const BINARY = {
  '+': (a, b) => a + b, '-': (a, b) => a - b, '*': (a, b) => a * b, '/': (a, b) => a / b, '%': (a, b) => a % b,
  '===': (a, b) => a === b, '!==': (a, b) => a !== b, '==': (a, b) => a == b, '!=': (a, b) => a != b, // eslint-disable-line eqeqeq
  '<': (a, b) => a < b, '>': (a, b) => a > b, '<=': (a, b) => a <= b, '>=': (a, b) => a >= b,
}

// An object's entries may be UNKNOWN (`{color: c, display: 'none'}`): a style or class reads them apart.
function valueOf(node) {
  switch (node.type) {
    case 'Literal': return node.regex || typeof node.value === 'bigint' ? UNKNOWN : node.value
    case 'Identifier':
      return Object.hasOwn(scope, node.name) ? scope[node.name] : Object.hasOwn(GLOBALS, node.name) ? GLOBALS[node.name] : UNKNOWN
    case 'MemberExpression': { // `$frontmatter.title`: an own property of a known object (else undefined)
      const object = valueOf(node.object)
      const key = node.computed ? valueOf(node.property) : node.property.type === 'Identifier' ? node.property.name : UNKNOWN
      if (node.optional || !object || typeof object !== 'object' || !known(key) || typeof key === 'object') return UNKNOWN
      return Object.hasOwn(object, key) ? object[key] : undefined
    }
    case 'TemplateLiteral': {
      const parts = node.expressions.map(valueOf)
      if (!parts.every((part) => known(part) && (part === null || typeof part !== 'object'))) return UNKNOWN
      return node.quasis.map((quasi, i) => quasi.value.cooked + (i < parts.length ? String(parts[i]) : '')).join('')
    }
    case 'UnaryExpression': {
      if (node.operator === 'void') return undefined
      const value = valueOf(node.argument)
      if (!known(value)) return UNKNOWN
      return node.operator === '!' ? !value : node.operator === '-' && typeof value !== 'object' ? -value
        : node.operator === '+' && typeof value !== 'object' ? +value : node.operator === 'typeof' ? typeof value : UNKNOWN
    }
    case 'BinaryExpression': {
      const [left, right] = [valueOf(node.left), valueOf(node.right)]
      const plain = (value) => known(value) && (value === null || typeof value !== 'object')
      return BINARY[node.operator] && plain(left) && plain(right) ? BINARY[node.operator](left, right) : UNKNOWN
    }
    case 'LogicalExpression': {
      const left = valueOf(node.left)
      if (!known(left)) return UNKNOWN
      const right = () => valueOf(node.right)
      if (node.operator === '&&') return left ? right() : left
      if (node.operator === '||') return left ? left : right()
      return left === null || left === undefined ? right() : left
    }
    case 'ConditionalExpression': {
      const test = valueOf(node.test)
      return known(test) ? valueOf(test ? node.consequent : node.alternate) : UNKNOWN
    }
    case 'SequenceExpression': return valueOf(node.expressions[node.expressions.length - 1])
    case 'ArrayExpression':
      return node.elements.every((element) => element && element.type !== 'SpreadElement')
        ? node.elements.map(valueOf) : UNKNOWN
    case 'ObjectExpression': {
      const object = {}
      for (const property of node.properties) {
        if (property.type !== 'Property' || property.computed || property.kind !== 'init') return UNKNOWN
        const key = property.key.type === 'Identifier' ? property.key.name : String(property.key.value)
        object[key] = valueOf(property.value)
      }
      return object
    }
    default: return UNKNOWN
  }
}

// toDisplayString (@vue/shared): what `{{ value }}` shows; an unknown value shows nothing.
function displayed(value) {
  if (value === UNKNOWN || value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  return typeof value === 'object' ? JSON.stringify(value, null, 2) : String(value)
}

function interpolated(text) {
  return text.includes('{{') ? text.replace(/\{\{([\s\S]*?)\}\}/g, (_, source) => displayed(evaluate(source))) : text
}

// Whether Vue renders a `v-for`'s element at all: its source has an item (a number above 0, a
// non-empty array, string or object). Rendered once here: its items' text is the alias's, unread.
function listed(source) {
  const found = FOR.exec(source)
  const value = found ? evaluate(found[1]) : UNKNOWN
  if (value === UNKNOWN) return false
  if (typeof value === 'number') return value >= 1
  if (typeof value === 'string' || Array.isArray(value)) return value.length > 0
  return Boolean(value) && typeof value === 'object' && Object.keys(value).length > 0
}

function styleText(value) {
  if (value === UNKNOWN) return 'display:none' // an unread item of a list of styles may hide
  if (typeof value === 'string') return value
  if (Array.isArray(value)) return value.map(styleText).join(';')
  if (!value || typeof value !== 'object') return ''
  // An entry that hides when its value is unknown: read as hiding (`{display: d}`).
  return Object.entries(value).map(([key, entry]) => {
    const property = key.startsWith('--') ? key : key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
    if (entry !== UNKNOWN) return entry === null || entry === undefined || entry === false ? '' : `${property}:${entry}`
    return ['display', 'visibility', 'content-visibility'].includes(property) ? `${property}:none` : ''
  }).filter(Boolean).join(';')
}

function classNames(value) {
  if (value === UNKNOWN) return [UNKNOWN]
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean)
  if (Array.isArray(value)) return value.flatMap(classNames)
  // An object's class is on when its value is truthy; an unknown value is read as on (the class may hide).
  if (value && typeof value === 'object') return Object.keys(value).filter((key) => value[key] === UNKNOWN || value[key])
  return []
}

// Sets one bound attribute; false when the element is hidden by what cannot be read.
function bind(properties, name, value) {
  // A dynamic argument (`:[name]="…"`) binds an attribute the reader does not know: it may hide.
  if (name.startsWith('[')) return false
  if (name === 'hidden') {
    if (value === UNKNOWN || value || value === '') properties.hidden = true
    else delete properties.hidden
  } else if (name === 'style') {
    if (value === UNKNOWN || typeof value === 'function') return false
    const css = styleText(value)
    if (css) properties.style = [properties.style, css].filter(Boolean).join(';')
  } else if (name === 'class') {
    const names = classNames(value)
    if (names.includes(UNKNOWN)) return false // a class the reader cannot see may be one that hides
    properties.className = [...(properties.className || []), ...names]
  } else if (value !== UNKNOWN && value !== null && value !== undefined && value !== false && typeof value !== 'object') {
    properties[name] = String(value)
  }
  return true
}

// The element's attributes as Vue renders them; false when it renders nothing (`v-show`, or an
// unreadable bound `style`, `class` or `v-bind` object).
function rendered(element) {
  const properties = element.properties || {}
  if (typeof properties.style === 'string') properties.style = staticStyle(properties.style)
  if ('v-show' in properties && !truthy(evaluate(properties['v-show']))) return false
  if ('v-for' in properties && !listed(String(properties['v-for']))) return false
  for (const key of Object.keys(properties)) {
    const value = String(properties[key])
    if (key === 'v-bind') {
      const object = evaluate(value, true)
      if (!object || typeof object !== 'object' || Array.isArray(object)) return false
      for (const [name, entry] of Object.entries(object)) if (!bind(properties, name, entry)) return false
    } else {
      const found = BIND.exec(key)
      if (found && !bind(properties, found[1], evaluate(value, true))) return false
    }
    if (key.startsWith('v-') || key.startsWith(':') || key.startsWith('@') || key.startsWith('#') || key.startsWith('.')) {
      delete properties[key]
    }
  }
  return true
}

// A static `style` as Vue renders it: its compiler parses it into an object (transformStyle,
// @vue/shared's parseStringStyle: comments dropped, split at `;` outside parentheses, each at its
// first `:`), which is written out again with each name hyphenated (stringifyStyle): `DISPLAY:
// none` is `d-i-s-p-l-a-y: none`, no property, and shows (the `probe/css` page).
function staticStyle(css) {
  const entries = {}
  for (const item of css.replace(/\/\*[^]*?\*\//g, '').split(/;(?![^(]*\))/g)) {
    const parts = item.split(/:([^]+)/)
    if (parts.length > 1) entries[parts[0].trim()] = parts[1].trim()
  }
  return Object.entries(entries).filter(([, value]) => value !== '')
    .map(([key, value]) => `${key.startsWith('--') ? key : key.replace(/\B([A-Z])/g, '-$1').toLowerCase()}:${value}`).join(';')
}

function truthy(value) {
  return value !== UNKNOWN && Boolean(value)
}

const VUE_KEY = /^(?:v-|:|@|#|\.)/

// Renders a page's tree as Vue would (vueRendered), its front matter the `$frontmatter` its template names.
export function renderVue(tree, fragment, slots = {}, frontmatter = {}) {
  scope = {$frontmatter: frontmatter && typeof frontmatter === 'object' ? frontmatter : {}}
  try {
    vueRendered(tree, fragment, slots)
  } finally {
    scope = {}
  }
}

// Renders `node`'s children as Vue would, in place. `fragment(html)`: HTML parsed as the page's
// (`v-html`'s value); `slots`: the slots a component renders, by its name in lower case without `-`.
export function vueRendered(node, fragment, slots = {}) {
  if (!node.children) return
  const out = []
  let chain = null // the v-if chain before: 'taken', 'open' (every condition false) or 'unknown'
  for (const child of node.children) {
    if (child.type === 'comment' || (child.type === 'text' && !child.value.trim())) {
      out.push(child)
      continue
    }
    if (child.type === 'text') {
      chain = null
      child.value = interpolated(child.value)
      out.push(child)
      continue
    }
    if (child.type !== 'element') {
      chain = null
      out.push(child)
      continue
    }
    const properties = child.properties || {}
    if ('v-pre' in properties) { // Vue leaves it as written
      chain = null
      out.push(child)
      continue
    }
    let keep = true
    if ('v-if' in properties || ('v-else-if' in properties && chain === 'open')) {
      const value = evaluate(String(properties['v-if'] ?? properties['v-else-if']))
      chain = value === UNKNOWN ? 'unknown' : value ? 'taken' : 'open'
      keep = chain === 'taken'
    } else if ('v-else-if' in properties) {
      keep = false
    } else if ('v-else' in properties) {
      keep = chain === 'open'
      chain = null
    } else {
      chain = null
    }
    const directives = Object.keys(properties).filter((key) => VUE_KEY.test(key))
    const [text, markup] = content(child.tagName, properties)
    if (!keep || !rendered(child)) continue
    if (child.tagName === 'teleport' && !teleported(child.properties || {})) continue
    if (text !== undefined) child.children = [{type: 'text', value: displayed(evaluate(String(text)))}]
    else if (markup !== undefined) {
      const value = evaluate(String(markup))
      child.children = typeof value === 'string' ? fragment(value) : []
    }
    if (child.tagName === 'template' && directives.length && child.content) {
      // A template with a directive (`v-if`, `v-for`, `#slot`) is a fragment: its content rendered.
      const content = {type: 'root', children: child.content.children}
      vueRendered(content, fragment, slots)
      out.push(...content.children)
      continue
    }
    const taken = Object.hasOwn(slots, child.tagName.replace(/-/g, '')) ? slots[child.tagName.replace(/-/g, '')] : null
    if (taken) child.children = slotted(child.children || [], taken)
    if (text === undefined && markup === undefined) vueRendered(child, fragment, slots)
    if (child.content) vueRendered(child.content, fragment, slots)
    badge(child)
    out.push(child)
  }
  node.children = out
}

// What replaces an element's children, as [text, HTML] expressions (undefined: its children stay):
// `v-text`, `v-html`; a DOM property bound with `.name` or `:name.prop` (Vue sets `textContent`,
// `innerText`, `innerHTML` on the element, not an attribute: `:textContent` without `.prop` is an
// attribute, its children shown); a `<textarea>`'s `v-model` or bound `value` (its value replaces
// what it holds; a model names the page's script: unknown, nothing).
function content(tag, properties) {
  let text = properties['v-text']
  let markup = properties['v-html']
  for (const key of Object.keys(properties)) {
    const found = BIND.exec(key)
    if (!found) continue
    const prop = key.startsWith('.') || key.split('.').slice(1).includes('prop')
    const name = found[1].toLowerCase()
    if (prop && (name === 'textcontent' || name === 'innertext')) text = properties[key]
    else if (prop && name === 'innerhtml') markup = properties[key]
    else if (tag === 'textarea' && name === 'value') text = properties[key]
  }
  if (tag === 'textarea' && 'v-model' in properties) text = properties['v-model']
  return [text, markup]
}

// Whether a `<Teleport>` renders its children: disabled (in place), or to the page's `body` (the
// build shows it there). A rule, not Vue: any other target is an element of the theme or the page
// that may not be there when it mounts (Vue then renders nothing: `to="#nowhere"`); not known, so
// nothing (fail closed). Read after its bound attributes are set (`:to`, `:disabled`).
function teleported(properties) {
  return [true, '', 'true'].includes(properties.disabled) || properties.to === 'body'
}

// A component's children that its slots render: a `<template #name>` (`v-slot:name`) when it renders
// that slot, the others (its default slot's content) when it renders `<slot />`.
function slotted(children, taken) {
  return children.filter((child) => {
    const properties = (child.type === 'element' && child.tagName === 'template' && child.properties) || {}
    const directive = Object.keys(properties).find((key) => key.startsWith('#') || key === 'v-slot' || key.startsWith('v-slot:'))
    const name = directive === undefined ? 'default' : directive.replace(/^#|^v-slot:?/, '') || 'default'
    return taken.includes(name)
  })
}

// VitePress's global `<Badge>` (its default theme): its slot, else its `text` prop, in the
// `<span class="VPBadge tip">` it renders (Badge.vue), which a page's rule may name (`p span`).
function badge(element) {
  if (element.tagName !== 'badge') return
  const properties = element.properties || {}
  const empty = (element.children || []).every((child) => child.type === 'comment' || (child.type === 'text' && !child.value.trim()))
  if (empty && typeof properties.text === 'string') element.children = [{type: 'text', value: properties.text}]
  element.tagName = 'span'
  const type = typeof properties.type === 'string' ? properties.type : 'tip'
  element.properties = {...properties, className: ['VPBadge', type, ...[].concat(properties.className || [])]}
}
