// What a site's own component renders when it takes its children apart (typeorm's `DatabaseTabs`:
// `React.Children.toArray(children).map((child) => … child.props …)`, then `<Tabs>` of `<TabItem>`s
// holding each child's children under a label read from a constants module). The reader's rule for
// a component (`reach`) shows its children only where its code renders them whatever the props;
// here the page's children are data the code reads, so the code is evaluated on this element's
// props, the page's own JSX children given as elements. This is not running the repository's code:
// a small interpreter over its syntax tree, of literals, objects, arrays, closures, destructuring,
// `if`, JSX, a whitelist of array, string, Set and Map methods, `Object.keys/values/entries` and
// React's `Children` and `isValidElement`; every step is counted. Anything else (a loop, a hook, a
// call it does not know, a `throw` reached, a module it is not given) stops the evaluation: the
// caller falls back to its guess. Returns the rendered tree or null.

const STEPS = 20000 // evaluation steps per element: typeorm's DatabaseTabs of 10 tabs takes ~2,000

export class Stop extends Error {}
export const stop = (why) => { throw new Stop(why) }

// Values: JS primitives, arrays, plain objects ({} of the evaluation), a Closure, a Builtin, an
// Element (JSX, the page's or the component's), Content (the page's Markdown: opaque).
export class Closure { constructor(node, scope, module) { Object.assign(this, {node, scope, module}) } }
class Builtin { constructor(call) { this.call = call } }
export class Element { constructor(type, props) { Object.assign(this, {type, props}) } }
export class Content { constructor(nodes) { this.nodes = nodes } }
export class Theme { constructor(name) { this.name = name } } // a package's component (`@theme/Tabs`)

const TRANSPARENT = new Set(['TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression', 'TSTypeAssertion',
  'ParenthesizedExpression', 'TSInstantiationExpression'])
const TYPES_ONLY = /^TS|^(?:EmptyStatement)$/

function normalize(path) {
  const out = []
  for (const part of path.split('/')) {
    if (part === '..' && out.length && out[out.length - 1] !== '..' && out[out.length - 1] !== '') out.pop()
    else if (part !== '.' && part !== '') out.push(part)
    else if (part === '' && !out.length) out.push('')
  }
  return out.join('/')
}

// A module's import source as the page would write it: `@site/…` and `/…` stay; `./x` from a
// module the page imported by `./components/y` is `./components/x` (the page's folder).
export function sourceFrom(importer, source) {
  if (!/^\.{1,2}\//.test(source) || !importer) return source
  const folder = importer.includes('/') ? importer.slice(0, importer.lastIndexOf('/')) : '.'
  const joined = normalize(`${folder}/${source}`)
  return /^(?:@site\/|\/|\.{1,2}\/)/.test(joined) ? joined : `./${joined}`
}

const ARRAY_METHODS = new Set(['map', 'filter', 'forEach', 'sort', 'slice', 'concat', 'join', 'indexOf', 'includes',
  'find', 'findIndex', 'some', 'every', 'flat', 'flatMap', 'reverse', 'at', 'reduce', 'push'])
// None that makes a string of a length the code chooses (`repeat`, `padStart`): the page's memory.
const STRING_METHODS = new Set(['toLowerCase', 'toUpperCase', 'trim', 'split', 'startsWith', 'endsWith', 'includes',
  'slice', 'indexOf', 'charAt', 'concat'])
const SET_METHODS = new Set(['has', 'add', 'delete'])
const MAP_METHODS = new Set(['has', 'get', 'set', 'delete'])

// The interpreter of a page's renders: `modules(source)` gives a module's parsed program (null when
// not given); each module's top level is evaluated once, when first read.
export class Renderer {
  constructor(modules, globals = null) {
    this.modules = modules // source → program | null
    this.globals = globals // name → what a name no module binds is (Mintlify's components), or undefined
    this.scopes = new Map() // source → its top-level scope
    this.steps = 0
    this.react = {
      Children: {
        toArray: new Builtin((children) => flatten(children)),
        map: new Builtin((children, fn) => (children == null ? children : flatten(children).map((c, i) => this.call(fn, [c, i])))),
        forEach: new Builtin((children, fn) => { flatten(children).forEach((c, i) => this.call(fn, [c, i])) }),
        count: new Builtin((children) => flatten(children).length),
        only: new Builtin((children) => { const all = flatten(children); return all.length === 1 ? all[0] : stop('Children.only') }),
      },
      isValidElement: new Builtin((value) => value instanceof Element),
      Fragment: new Theme('Fragment'),
    }
  }

  tick() {
    if (++this.steps > STEPS) stop('too many steps')
  }

  // A module's top-level scope: its imports and declarations, each evaluated when first read.
  scope(source) {
    if (this.scopes.has(source)) return this.scopes.get(source)
    const program = this.modules(source)
    if (!program) stop(`module ${source} not given`)
    const scope = {vars: new Map(), lazy: new Map(), parent: null, source}
    this.scopes.set(source, scope)
    for (let statement of program.body) {
      if (statement.type === 'ImportDeclaration') {
        if (statement.importKind === 'type') continue
        const from = String(statement.source.value)
        for (const specifier of statement.specifiers) {
          if (specifier.importKind === 'type') continue
          const key = specifier.type === 'ImportDefaultSpecifier' ? 'default' : specifier.type === 'ImportNamespaceSpecifier' ? '*'
            : specifier.imported.name ?? specifier.imported.value
          scope.lazy.set(specifier.local.name, () => this.imported(source, from, key))
        }
        continue
      }
      if (statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration') {
        const declaration = statement.declaration
        if (statement.type === 'ExportDefaultDeclaration') {
          if (/Declaration$/.test(declaration.type) && declaration.id) this.declare(declaration, scope)
          scope.lazy.set('%default', () => (declaration.id ? this.lookup(scope, declaration.id.name)
            : /^(?:Arrow)?Function/.test(declaration.type) ? new Closure(declaration, scope, source) : this.evaluate(declaration, scope)))
          continue
        }
        if (declaration) this.declare(declaration, scope)
        for (const specifier of statement.source ? [] : statement.specifiers) {
          const name = specifier.exported.name ?? specifier.exported.value
          scope.lazy.set(`%${name}`, () => this.lookup(scope, specifier.local.name))
        }
        continue
      }
      this.declare(statement, scope)
    }
    return scope
  }

  declare(statement, scope) {
    if (/^(?:Function|Class)Declaration$/.test(statement.type) && statement.id) {
      scope.lazy.set(statement.id.name, () => (statement.type === 'FunctionDeclaration' ? new Closure(statement, scope, scope.source) : stop('a class')))
    } else if (statement.type === 'VariableDeclaration') {
      for (const each of statement.declarations) {
        if (each.id.type === 'Identifier') scope.lazy.set(each.id.name, () => (each.init ? this.evaluate(each.init, scope) : undefined))
      }
    }
  }

  exported(source, key) {
    const scope = this.scope(source)
    const name = key === 'default' ? '%default' : `%${key}`
    if (scope.lazy.has(name) || scope.vars.has(name)) return this.lookup(scope, name)
    return this.lookup(scope, key)
  }

  imported(importer, from, key) {
    if (from === 'react') return key === 'default' || key === '*' ? this.react : key in this.react ? this.react[key] : stop(`react's ${key}`)
    if (from.startsWith('@theme/')) return new Theme(key === 'default' ? from.slice('@theme/'.length).split('/').pop() : key)
    if (!/^(?:\.{1,2}\/|\/|@site\/)/.test(from)) stop(`the package ${from}`)
    if (key === '*') stop('a namespace import')
    return this.exported(sourceFrom(importer, from), key)
  }

  lookup(scope, name) {
    for (let at = scope; at; at = at.parent) {
      if (at.vars.has(name)) return at.vars.get(name)
      if (at.lazy.has(name)) {
        const make = at.lazy.get(name)
        at.lazy.delete(name)
        at.vars.set(name, undefined) // a binding that reads itself while made: undefined, as in a TDZ
        const value = make()
        at.vars.set(name, value)
        return value
      }
    }
    if (name === 'undefined') return undefined
    if (name === 'Object') return OBJECT
    if (name === 'Set' || name === 'Map') return name
    if (name === 'Array') return ARRAY
    const global = this.globals ? this.globals(name) : undefined
    return global !== undefined ? global : stop(`the name ${name}`)
  }

  call(fn, args) {
    this.tick()
    if (fn instanceof Builtin) return fn.call(...args)
    if (!(fn instanceof Closure)) stop('a call of a value that is not a function')
    const node = fn.node
    if (node.async || node.generator) stop('an async or generator function')
    const scope = {vars: new Map(), lazy: new Map(), parent: fn.scope, source: fn.module}
    node.params.forEach((param, index) => this.bind(param, args[index], scope))
    if (node.body.type !== 'BlockStatement') return this.evaluate(node.body, scope)
    const result = this.run(node.body.body, scope)
    return result ? result.value : undefined
  }

  bind(pattern, value, scope) {
    this.tick()
    switch (pattern.type) {
      case 'Identifier': scope.vars.set(pattern.name, value); return
      case 'AssignmentPattern': this.bind(pattern.left, value === undefined ? this.evaluate(pattern.right, scope) : value, scope); return
      case 'ObjectPattern': {
        if (value == null) stop('destructuring nothing')
        const used = new Set()
        for (const property of pattern.properties) {
          if (property.type === 'RestElement') {
            const rest = {}
            for (const key of Object.keys(value)) if (!used.has(key)) rest[key] = value[key]
            this.bind(property.argument, rest, scope)
            continue
          }
          const key = property.computed ? this.evaluate(property.key, scope) : property.key.name ?? property.key.value
          used.add(String(key))
          this.bind(property.value, this.member(value, key), scope)
        }
        return
      }
      case 'ArrayPattern': {
        if (!Array.isArray(value)) stop('destructuring a value that is not an array')
        pattern.elements.forEach((element, index) => {
          if (!element) return
          if (element.type === 'RestElement') this.bind(element.argument, value.slice(index), scope)
          else this.bind(element, value[index], scope)
        })
        return
      }
      default:
        if (TRANSPARENT.has(pattern.type)) return this.bind(pattern.expression, value, scope)
        stop(`a ${pattern.type} pattern`)
    }
  }

  // Runs statements; {value} when one returns.
  run(statements, scope) {
    for (const statement of statements) {
      this.tick()
      if (TYPES_ONLY.test(statement.type)) continue
      switch (statement.type) {
        case 'VariableDeclaration':
          for (const each of statement.declarations) this.bind(each.id, each.init ? this.evaluate(each.init, scope) : undefined, scope)
          break
        case 'FunctionDeclaration':
          scope.vars.set(statement.id.name, new Closure(statement, scope, scope.source))
          break
        case 'ExpressionStatement': this.evaluate(statement.expression, scope); break
        case 'ReturnStatement': return {value: statement.argument ? this.evaluate(statement.argument, scope) : undefined}
        case 'IfStatement': {
          const branch = this.evaluate(statement.test, scope) ? statement.consequent : statement.alternate
          if (branch) {
            const inner = {vars: new Map(), lazy: new Map(), parent: scope, source: scope.source}
            const result = this.run(branch.type === 'BlockStatement' ? branch.body : [branch], inner)
            if (result) return result
          }
          break
        }
        case 'BlockStatement': {
          const result = this.run(statement.body, {vars: new Map(), lazy: new Map(), parent: scope, source: scope.source})
          if (result) return result
          break
        }
        default: stop(`a ${statement.type}`) // a throw reached, a loop, a try
      }
    }
    return null
  }

  member(object, key) {
    this.tick()
    if (object == null) stop('a property of nothing')
    key = typeof key === 'number' ? key : String(key)
    if (Array.isArray(object)) {
      if (key === 'length' || typeof key === 'number' || /^\d+$/.test(key)) return object[key]
      if (ARRAY_METHODS.has(key)) return new Builtin((...args) => object[key](...args.map((a) => this.native(a))))
      return stop(`an array's ${key}`)
    }
    if (typeof object === 'string') {
      if (key === 'length' || /^\d+$/.test(key)) return object[key]
      if (STRING_METHODS.has(key)) return new Builtin((...args) => object[key](...args.map((a) => this.native(a))))
      return stop(`a string's ${key}`)
    }
    if (object instanceof Set || object instanceof Map) {
      if (key === 'size') return object.size
      if ((object instanceof Set ? SET_METHODS : MAP_METHODS).has(key)) return new Builtin((...args) => object[key](...args))
      return stop(`a ${object.constructor.name}'s ${key}`)
    }
    if (object instanceof Element) {
      if (key === 'props') return object.props instanceof Content ? stop('the props of Markdown') : object.props
      if (key === 'type') return object.type
      if (key === 'key') return null
      return undefined
    }
    if (object instanceof Content) stop('a property of Markdown')
    if (object === this.react || object === this.react.Children || object === OBJECT) {
      return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : stop(`React's ${key}`)
    }
    if (object instanceof Closure || object instanceof Builtin || object instanceof Theme) stop('a property of a function')
    if (typeof object !== 'object') stop('a property of a primitive')
    return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined
  }

  // A value handed to a native method: a function becomes one the method can call.
  native(value) {
    return value instanceof Closure || value instanceof Builtin ? (...args) => this.call(value, args) : value
  }

  evaluate(node, scope) {
    this.tick()
    while (TRANSPARENT.has(node.type)) node = node.expression
    switch (node.type) {
      case 'Literal':
        if (node.regex || node.bigint !== undefined) stop('a regular expression')
        return node.value
      case 'TemplateLiteral':
        return node.quasis.map((quasi, i) => quasi.value.cooked + (i < node.expressions.length ? String(this.evaluate(node.expressions[i], scope)) : '')).join('')
      case 'Identifier': return this.lookup(scope, node.name)
      case 'ArrayExpression': {
        const items = []
        for (const element of node.elements) {
          if (element && element.type === 'SpreadElement') items.push(...this.iterable(this.evaluate(element.argument, scope)))
          else items.push(element ? this.evaluate(element, scope) : undefined)
        }
        return items
      }
      case 'ObjectExpression': {
        const object = {}
        for (const property of node.properties) {
          if (property.type === 'SpreadElement') {
            Object.assign(object, this.spreadObject(property.argument, scope))
            continue
          }
          if (property.kind !== 'init') stop('an accessor')
          const key = property.computed ? String(this.evaluate(property.key, scope)) : property.key.name ?? String(property.key.value)
          if (key === '__proto__') stop('__proto__')
          object[key] = property.method ? new Closure(property.value, scope, scope.source) : this.evaluate(property.value, scope)
        }
        return object
      }
      case 'MemberExpression': {
        const object = this.evaluate(node.object, scope)
        if (node.optional && object == null) return undefined
        return this.member(object, node.computed ? this.evaluate(node.property, scope) : node.property.name)
      }
      case 'ChainExpression': return this.evaluate(node.expression, scope)
      case 'CallExpression': {
        if (node.callee.type === 'Super' || node.callee.type === 'Import') stop('super or import()')
        const callee = this.evaluate(node.callee, scope)
        if (node.optional && callee == null) return undefined
        const args = []
        for (const arg of node.arguments) {
          if (arg.type === 'SpreadElement') args.push(...this.iterable(this.evaluate(arg.argument, scope)))
          else args.push(this.evaluate(arg, scope))
        }
        return this.call(callee, args)
      }
      case 'NewExpression': {
        const what = this.evaluate(node.callee, scope)
        const args = node.arguments.map((arg) => this.evaluate(arg, scope))
        if (what === 'Set') return new Set(args[0] === undefined ? [] : this.iterable(args[0]))
        if (what === 'Map') return new Map(args[0] === undefined ? [] : this.iterable(args[0]))
        return stop('new of that')
      }
      case 'ArrowFunctionExpression': case 'FunctionExpression': return new Closure(node, scope, scope.source)
      case 'ConditionalExpression': return this.evaluate(this.evaluate(node.test, scope) ? node.consequent : node.alternate, scope)
      case 'LogicalExpression': {
        const left = this.evaluate(node.left, scope)
        if (node.operator === '&&') return left ? this.evaluate(node.right, scope) : left
        if (node.operator === '||') return left ? left : this.evaluate(node.right, scope)
        return left ?? this.evaluate(node.right, scope)
      }
      case 'UnaryExpression': {
        const value = this.evaluate(node.argument, scope)
        switch (node.operator) {
          case '!': return !value
          case '-': return -this.number(value)
          case '+': return +this.number(value)
          case 'typeof': return value instanceof Closure || value instanceof Builtin ? 'function' : typeof value
          case 'void': return undefined
          default: return stop(node.operator)
        }
      }
      case 'BinaryExpression': return binary(node.operator, this.evaluate(node.left, scope), this.evaluate(node.right, scope))
      case 'SequenceExpression': return node.expressions.map((each) => this.evaluate(each, scope)).pop()
      case 'JSXFragment': return new Element(this.react.Fragment, {children: this.jsxChildren(node.children, scope)})
      case 'JSXElement': return this.jsx(node, scope)
      case 'JSXExpressionContainer': return node.expression.type === 'JSXEmptyExpression' ? undefined : this.evaluate(node.expression, scope)
      default: return stop(`a ${node.type}`) // assignment, update, await, this, class, …
    }
  }

  number(value) {
    if (typeof value !== 'number') stop('arithmetic on that')
    return value
  }

  // What `{...x}` spreads into an object or a JSX element's props: an object (not an element), or nothing.
  spreadObject(node, scope) {
    const value = this.evaluate(node, scope)
    if (value != null && (typeof value !== 'object' || value instanceof Element)) stop('a spread of that')
    return value
  }

  iterable(value) {
    if (Array.isArray(value)) return value
    if (value instanceof Set || value instanceof Map || typeof value === 'string') return [...value]
    return stop('a spread of that')
  }

  jsx(node, scope) {
    const opening = node.openingElement
    const type = this.jsxType(opening.name, scope)
    const props = {}
    for (const attribute of opening.attributes) {
      if (attribute.type === 'JSXSpreadAttribute') {
        Object.assign(props, this.spreadObject(attribute.argument, scope))
        continue
      }
      if (attribute.name.type !== 'JSXIdentifier') stop('a namespaced attribute')
      const value = attribute.value
      props[attribute.name.name] = value === null ? true : value.type === 'Literal' ? value.value : this.evaluate(value, scope)
    }
    const children = this.jsxChildren(node.children, scope)
    if (children.length) props.children = children.length === 1 ? children[0] : children
    return new Element(type, props)
  }

  jsxType(name, scope) {
    if (name.type === 'JSXIdentifier') return /^[a-z]/.test(name.name) && !name.name.includes('.') ? name.name : this.lookup(scope, name.name)
    if (name.type === 'JSXMemberExpression') return this.member(this.jsxType(name.object, scope), name.property.name)
    return stop('a namespaced element')
  }

  jsxChildren(children, scope) {
    const out = []
    for (const child of children) {
      if (child.type === 'JSXText') {
        const text = jsxText(child.value)
        if (text) out.push(text)
      } else if (child.type === 'JSXExpressionContainer' && child.expression.type === 'JSXEmptyExpression') continue
      else out.push(this.evaluate(child, scope))
    }
    return out
  }
}

// JSX's whitespace: lines trimmed, those holding only whitespace dropped, the rest joined by a space.
function jsxText(value) {
  const lines = value.split(/\r\n|\n|\r/)
  return lines.map((line, i) => {
    let text = line.replace(/\t/g, ' ')
    if (i !== 0) text = text.replace(/^ +/, '')
    if (i !== lines.length - 1) text = text.replace(/ +$/, '')
    return text
  }).filter(Boolean).join(' ')
}

function flatten(children) {
  const out = []
  const add = (value) => {
    if (Array.isArray(value)) value.forEach(add)
    else if (value !== null && value !== undefined && typeof value !== 'boolean') out.push(value)
  }
  add(children)
  return out
}

function binary(operator, left, right) {
  const primitive = (value) => value === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof value)
  switch (operator) {
    case '===': return left === right
    case '!==': return left !== right
    case '==': return left == right // eslint-disable-line eqeqeq
    case '!=': return left != right // eslint-disable-line eqeqeq
    case 'in': if (right && typeof right === 'object' && !(right instanceof Element)) return Object.prototype.hasOwnProperty.call(right, left); break
    default:
      if (primitive(left) && primitive(right)) {
        switch (operator) {
          case '+': return left + right
          case '-': return left - right
          case '*': return left * right
          case '/': return left / right
          case '%': return left % right
          case '<': return left < right
          case '>': return left > right
          case '<=': return left <= right
          case '>=': return left >= right
        }
      }
  }
  return stop(`the operator ${operator}`)
}

const OBJECT = {
  keys: new Builtin((value) => (value && typeof value === 'object' && !(value instanceof Element) ? Object.keys(value) : stop('Object.keys of that'))),
  values: new Builtin((value) => (value && typeof value === 'object' && !(value instanceof Element) ? Object.values(value) : stop('Object.values of that'))),
  entries: new Builtin((value) => (value && typeof value === 'object' && !(value instanceof Element) ? Object.entries(value) : stop('Object.entries of that'))),
}
const ARRAY = {isArray: new Builtin((value) => Array.isArray(value))}
