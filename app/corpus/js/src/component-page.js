// A page's JSX element handed to the site's component that takes its children apart, and what the
// component renders handed back to the page's handlers (component-render.js evaluates it).
import {Closure, Content, Element, Stop, Theme, stop} from './component-render.js'

// The page's JSX element as React hands it to its component: its attributes (`value` gives an
// attribute's value, undefined when the reader cannot see it: reading it stops the evaluation), its
// JSX children as elements (`typeOf` their names' bindings: undefined, one the reader cannot
// evaluate), its other children as Markdown.
export function pageProps(node, value, typeOf) {
  const props = {}
  for (const attribute of node.attributes || []) {
    if (attribute.type !== 'mdxJsxAttribute') stop('a spread of the page')
    if (attribute.name === '__proto__') continue
    const seen = value(attribute)
    if (seen === undefined) Object.defineProperty(props, attribute.name, {enumerable: true, get: () => stop(`the attribute ${attribute.name}`)})
    else props[attribute.name] = seen
  }
  const children = []
  for (const child of node.children || []) {
    if (child.type === 'text' && /^[\t\n\f\r ]*$/.test(child.value)) continue
    if ((child.type === 'mdxJsxFlowElement' || child.type === 'mdxJsxTextElement') && child.name) {
      const type = /^[a-z][a-z0-9-]*$/.test(child.name) ? child.name : typeOf(child.name)
      if (type === undefined) stop(`the page's own ${child.name}`)
      children.push(new Element(type, pageProps(child, value, typeOf)))
    } else children.push(new Content([child]))
  }
  if (children.length) props.children = children.length === 1 ? children[0] : children
  return props
}

// What the render gives, as mdast for the page's handlers: the page's Markdown as it was, each
// element a JSX element of the page marked `rendered` (its attributes given: `data.attributes`),
// a component of the module rendered in turn, a theme's component (`@theme/Tabs`) by its name.
export function renderedMdast(value, renderer, flow) {
  if (value === null || value === undefined || typeof value === 'boolean') return []
  if (typeof value === 'string' || typeof value === 'number') return [{type: 'text', value: String(value)}]
  if (Array.isArray(value)) return value.flatMap((item) => renderedMdast(item, renderer, flow))
  if (value instanceof Content) return value.nodes
  if (!(value instanceof Element)) return stop('an object rendered') // React throws
  const {type, props} = value
  if (type instanceof Closure) return renderedMdast(renderer.call(type, [props]), renderer, flow)
  if (type instanceof Theme && type.name === 'Fragment') return renderedMdast(props.children, renderer, flow)
  if (!(type instanceof Theme) && typeof type !== 'string') return stop('an element of an unknown type')
  const attributes = {}
  for (const [key, item] of Object.entries(props)) {
    if (key === 'children' || key === 'key' || key === 'ref') continue
    if (key === 'hidden') attributes.hidden = Boolean(item)
    else if (key === 'style' && item && typeof item === 'object') attributes.style = item
    else if (typeof item === 'string' || typeof item === 'number') attributes[key] = String(item)
    else if (item === true) attributes[key] = true
  }
  return [{type: flow ? 'mdxJsxFlowElement' : 'mdxJsxTextElement', name: type instanceof Theme ? type.name : type, attributes: [],
    children: renderedMdast(props.children, renderer, flow), data: {rendered: true, attributes}}]
}

// The element `node` rendered by its component `component` (a module's export: {source, key}), as
// mdast; null when the evaluation stops.
export function renderApart(node, component, renderer, value, typeOf) {
  try {
    const fn = renderer.exported(component.source, component.key)
    const props = pageProps(node, value, typeOf)
    renderer.steps = 0
    return renderedMdast(renderer.call(fn, [props]), renderer, node.type === 'mdxJsxFlowElement')
  } catch (error) {
    // Stopped; or what the code did fails as it would in the browser (a TypeError: a `toString`
    // that is not a function; a RangeError: a recursion too deep): a guess, never the page refused.
    if (error instanceof Stop || error instanceof TypeError || error instanceof RangeError) return null
    throw error
  }
}
