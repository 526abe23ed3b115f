// The value a JavaScript or TypeScript module exports, read without running it: a Docusaurus
// `sidebars.js`/`sidebars.ts` is code, and docschat never executes a repository's code.
//
// moduleValue(text, {typescript}) parses the module with acorn (with @sveltejs/acorn-typescript for
// TypeScript: type annotations, `satisfies`, `as`, imported types), finds what it exports:
// `module.exports = …`, `export default …`, or a top-level `const x = …` that either names, and
// evaluates that expression from its literals only: objects, arrays, strings, numbers, booleans,
// null, and template literals without placeholders. Anything else (a call, a spread, a variable, a
// computed key, a function) is left out of the value and reported with its line.
// With {config: true} (a docusaurus.config.*), code stays in the value as {$code: what} (and
// `module`, the package it names, where it only names one: requiredModule), so that an
// option set by code is told from an option not set (Docusaurus's default), and two spellings of a
// file beside the config are read as that file's path (pathOf).
// Returns JSON: {value, skipped: [[line, what], …]}, {missing: what}, or {error, line}.
import {Parser} from 'acorn'
import {tsPlugin} from '@sveltejs/acorn-typescript'

const JS = Parser
let TS = null // extended on first use: the plugin's parser is only needed for `.ts` files

// TypeScript wrappers around a value that change its type, never the value.
const TRANSPARENT = new Set(['TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression',
  'TSTypeAssertion', 'ParenthesizedExpression'])

function parse(text, typescript) {
  const parser = typescript ? (TS = TS || JS.extend(tsPlugin())) : JS
  const options = {ecmaVersion: 'latest', locations: true, allowHashBang: true, allowReturnOutsideFunction: true}
  try {
    return parser.parse(text, {...options, sourceType: 'module'})
  } catch (error) {
    // CommonJS that is not valid as a module (`with`, octal literals, …): read as a script.
    try {
      return parser.parse(text, {...options, sourceType: 'script'})
    } catch {
      throw error
    }
  }
}

function unwrap(node) {
  while (node && TRANSPARENT.has(node.type)) node = node.expression
  return node
}

function isModuleExports(node) {
  return node && node.type === 'MemberExpression' && !node.computed &&
    node.object.type === 'Identifier' && node.object.name === 'module' &&
    node.property.type === 'Identifier' && node.property.name === 'exports'
}

// Top-level statements that declare nothing and may change the value when run (`sidebars.docs.push(…)`,
// an `if`): not run, so reported with the parts left out.
const INERT = new Set(['ImportDeclaration', 'ExportNamedDeclaration', 'ExportDefaultDeclaration', 'ExportAllDeclaration',
  'VariableDeclaration', 'FunctionDeclaration', 'ClassDeclaration', 'EmptyStatement', 'TSTypeAliasDeclaration',
  'TSInterfaceDeclaration', 'TSImportEqualsDeclaration', 'TSModuleDeclaration', 'TSEnumDeclaration'])

// The exported expression: the last `module.exports = …` or `export default …` of the module's top
// level; an identifier is followed to its top-level declaration. `statements` gets the others.
function exported(program, statements) {
  const declared = new Map()
  let found = null
  for (const statement of program.body) {
    const expression = statement.type === 'ExpressionStatement' ? unwrap(statement.expression) : null
    const exporting = expression && expression.type === 'AssignmentExpression' && isModuleExports(expression.left)
    if (!INERT.has(statement.type) && !exporting && !(expression && expression.type === 'Literal')) {
      statements.push([statement.loc.start.line, 'a statement'])
    }
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement
    if (declaration && declaration.type === 'VariableDeclaration') {
      for (const item of declaration.declarations) {
        if (item.id.type === 'Identifier' && item.init) declared.set(item.id.name, item.init)
      }
    }
    if (statement.type === 'ExportDefaultDeclaration') found = statement.declaration
    if (statement.type === 'ExpressionStatement') {
      const expression = unwrap(statement.expression)
      if (expression.type === 'AssignmentExpression' && expression.operator === '=' && isModuleExports(expression.left)) {
        found = expression.right
      }
    }
  }
  for (let hops = 0; hops < 10; hops++) {
    const node = unwrap(found)
    if (!node || node.type !== 'Identifier') return node
    found = declared.get(node.name)
  }
  return null
}

function describe(node) {
  switch (node.type) {
    case 'CallExpression': return 'a function call'
    case 'SpreadElement': return 'a spread'
    case 'Identifier': return `the variable ${node.name}`
    case 'TemplateLiteral': return 'a template literal with placeholders'
    case 'FunctionExpression': case 'ArrowFunctionExpression': case 'FunctionDeclaration': return 'a function'
    default: return `an expression (${node.type})`
  }
}

// A rule, not the real part: running the config is what Docusaurus does, and docschat never runs a
// repository's code. `require.resolve('./sidebars.js')` (Docusaurus 2's template) and
// `path.join(__dirname, 'sidebars.json')` (or `path.resolve`) name a file by its path from the
// config's folder, where Docusaurus resolves a relative `sidebarPath` too: read as that relative
// path. Only string literals after `__dirname`; any other call stays code.
function pathOf(node) {
  if (node.type !== 'CallExpression' || node.optional || node.callee.type !== 'MemberExpression' || node.callee.computed) return null
  const {object, property} = node.callee
  const strings = (args) => args.every((arg) => arg.type === 'Literal' && typeof arg.value === 'string')
  if (object.type === 'Identifier' && object.name === 'require' && property.name === 'resolve' &&
      node.arguments.length === 1 && strings(node.arguments)) {
    return node.arguments[0].value
  }
  if (object.type === 'Identifier' && object.name === 'path' && (property.name === 'join' || property.name === 'resolve') &&
      node.arguments.length > 1 && node.arguments[0].type === 'Identifier' && node.arguments[0].name === '__dirname' &&
      strings(node.arguments.slice(1))) {
    return ['.', ...node.arguments.slice(1).map((arg) => arg.value)].join('/')
  }
  return null
}

// The module a config's code names, where it only names one: `require('x')`, `require('x').default`,
// or a top-level binding of it (`import x from 'x'`, `const x = require('x')`): a Docusaurus
// `remarkPlugins` entry, which site_docusaurus_instance.py tells by its package. Never resolved or run.
function requiredModule(node) {
  node = unwrap(node)
  if (node && node.type === 'MemberExpression' && !node.computed && node.property.name === 'default') node = unwrap(node.object)
  if (!node || node.type !== 'CallExpression' || node.callee.type !== 'Identifier' || node.callee.name !== 'require' ||
      node.arguments.length !== 1 || node.arguments[0].type !== 'Literal' || typeof node.arguments[0].value !== 'string') return null
  return node.arguments[0].value
}

function moduleOf(node, bindings) {
  node = unwrap(node)
  if (node && node.type === 'Identifier' && bindings.has(node.name)) return bindings.get(node.name)
  return requiredModule(node)
}

// Top-level names bound to a module: default and namespace imports, and `const x = require('x')`.
function moduleBindings(program) {
  const bindings = new Map()
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration' && typeof statement.source.value === 'string') {
      for (const specifier of statement.specifiers) {
        if (specifier.type !== 'ImportSpecifier') bindings.set(specifier.local.name, statement.source.value)
      }
    } else if (statement.type === 'VariableDeclaration') {
      for (const item of statement.declarations) {
        const required = item.id.type === 'Identifier' && item.init ? requiredModule(item.init) : null
        if (required !== null) bindings.set(item.id.name, required)
      }
    }
  }
  return bindings
}

function evaluate(node, skipped, config, bindings = new Map()) {
  node = unwrap(node)
  const skip = (what, at = node) => {
    skipped.push([at.loc.start.line, what])
    if (!config) return undefined
    const module = at === node ? moduleOf(node, bindings) : null
    return module === null ? {$code: what} : {$code: what, module}
  }
  if (config) {
    const path = pathOf(node)
    if (path !== null) return path
  }
  switch (node.type) {
    case 'Literal':
      if (node.regex || node.bigint !== undefined) return skip('a regular expression or BigInt')
      return node.value
    case 'TemplateLiteral':
      if (node.expressions.length) return skip(describe(node))
      return node.quasis.map((quasi) => quasi.value.cooked).join('')
    case 'ArrayExpression': {
      const items = []
      for (const element of node.elements) {
        if (element === null) continue
        if (element.type === 'SpreadElement') { skip(describe(element), element); continue }
        const value = evaluate(element, skipped, config, bindings)
        if (value !== undefined) items.push(value)
      }
      return items
    }
    case 'ObjectExpression': {
      const object = {}
      for (const property of node.properties) {
        if (property.type === 'SpreadElement') { skip(describe(property), property); continue }
        if (property.computed || property.kind !== 'init' || property.method) {
          skip('a computed key, a method or an accessor', property)
          continue
        }
        const key = property.key.type === 'Identifier' ? property.key.name : String(property.key.value)
        const value = evaluate(property.value, skipped, config, bindings)
        if (value !== undefined) object[key] = value
      }
      return object
    }
    default:
      return skip(describe(node))
  }
}

export function moduleValue(text, options) {
  let program
  try {
    program = parse(text, Boolean(options && options.typescript))
  } catch (error) {
    return JSON.stringify({error: String(error.message || error), line: error.loc ? error.loc.line : null})
  }
  const skipped = []
  const node = exported(program, skipped)
  if (!node) return JSON.stringify({missing: '`module.exports = …` or `export default …` of a value'})
  const value = evaluate(node, skipped, Boolean(options && options.config), moduleBindings(program))
  return JSON.stringify({value: value === undefined ? null : value, skipped})
}
