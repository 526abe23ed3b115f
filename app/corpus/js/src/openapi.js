// What a Mintlify API page generated from an OpenAPI operation shows, from the spec, read by the
// parts Mintlify itself uses:
// - @mintlify/openapi-parser reads the spec (normalize: JSON, else YAML by the `yaml` package with
//   its alias limit) and resolves its `$ref`s (resolveReferences: what its dereference runs);
// - @mintlify/common's generateOpenApiPages lists the pages a docs.json `openapi` source makes
//   (title, href, tag; `x-excluded` operations left out, `x-hidden` ones marked);
// - @mintlify/validation's OpenApiToEndpointConverter turns an operation into the endpoint
//   (parameters, security, body and responses as typed field trees), the converter Mintlify's own
//   search indexing of API pages used.
// The page's text is laid out here as Mintlify's API page shows it (its renderer is a hosted
// client, not published): the method and path, then "Authorizations", "Path Parameters", "Query
// Parameters", "Headers", "Cookies", "Body" and "Response" sections, each field as
// `name type required deprecated default: x` (the line a <ParamField> shows), its description,
// "Available options: …" and its child fields after it. Fields and parameters marked `x-hidden`
// or `x-excluded` are left out before conversion (failing closed: never shown, never indexed).
import {getSegmentsFromPath, normalize, resolveReferences} from '@mintlify/openapi-parser'
import {buildGeneratedMdxContent, generateOpenApiPages, truncateCircularReferences} from '@mintlify/common'
import {OpenApiToEndpointConverter} from '@mintlify/validation'
// What @mintlify/common's validate runs first on every OpenAPI file of a site (its prebuild's
// categorizeFilePaths), not among the package's exports: a spec with a `$ref` to another file or a
// URL is refused, and Mintlify builds no page of it.
import {checkForExternalRefs} from '../node_modules/@mintlify/common/dist/asyncapi/checkForExternalRefs.js'

// V8 alone has no structuredClone (a web and Node API), which resolveReferences detaches its input
// with: a spec is plain data (JSON or YAML), so a clone keeping shared and circular objects is it.
function clone(value, seen = new Map()) {
  if (!value || typeof value !== 'object') return value
  if (seen.has(value)) return seen.get(value)
  const copy = Array.isArray(value) ? [] : {}
  seen.set(value, copy)
  for (const key of Object.keys(value)) copy[key] = clone(value[key], seen)
  return copy
}
if (typeof globalThis.structuredClone !== 'function') globalThis.structuredClone = (value) => clone(value)

const SPECS = new Map() // key (path and hash) → resolved spec; the last few only
const KEEP = 4
const MAX_FIELDS = 3000 // field lines of one page at most: a schema that fans out stops here
const MAX_EXAMPLES = 10 // examples (and code samples) of one request or response shown at most
const MAX_EXAMPLE_CHARS = 4000 // an example longer than this is cut (shownExamples)
const MAX_DEPTH = 8 // nesting of child fields shown at most (Mintlify's converter stops at 10)
const HIDDEN = (value) => value && typeof value === 'object' && (value['x-hidden'] === true || value['x-excluded'] === true)
const SECTIONS = [['path', 'Path Parameters'], ['query', 'Query Parameters'], ['header', 'Headers'], ['cookie', 'Cookies']]

// Every property, parameter and security-free field marked x-hidden or x-excluded, removed (the
// resolved spec shares objects between references, and may be circular: each object once).
function withoutHidden(root) {
  const seen = new WeakSet()
  const stack = [root]
  while (stack.length) {
    const node = stack.pop()
    if (!node || typeof node !== 'object' || seen.has(node)) continue
    seen.add(node)
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) {
        if (HIDDEN(node[i]) && typeof node[i].in === 'string') node.splice(i, 1) // a parameter
        else stack.push(node[i])
      }
      continue
    }
    if (node.properties && typeof node.properties === 'object') {
      for (const key of Object.keys(node.properties)) if (HIDDEN(node.properties[key])) delete node.properties[key]
    }
    for (const key of Object.keys(node)) stack.push(node[key])
  }
  return root
}

// The `$ref`s of the spec that lead nowhere: a pointer to nothing in it (resolveReferences leaves
// it empty, without a word). One to another file never gets here (checkForExternalRefs).
function danglingRefs(root) {
  const found = new Set()
  const seen = new WeakSet()
  const stack = [root]
  while (stack.length && found.size < 20) {
    const node = stack.pop()
    if (!node || typeof node !== 'object' || seen.has(node)) continue
    seen.add(node)
    if (typeof node.$ref === 'string') {
      let target = root
      for (const key of getSegmentsFromPath(node.$ref.split('#', 2)[1] || '')) target = target && typeof target === 'object' ? target[key] : undefined
      if (target === undefined) found.add(`${node.$ref} names nothing`)
    }
    for (const key of Object.keys(node)) stack.push(node[key])
  }
  return [...found]
}

export function openapiLoaded(key) {
  return SPECS.has(key)
}

// Loads the spec `text` (JSON or YAML) under `key`; answers its pages (generateOpenApiPages) or
// {error}. `file` is the spec's path in the site (pages' `openapi` strings name it).
export function openapiSpec(key, text, file) {
  try {
    let spec = SPECS.get(key)
    if (!spec) {
      const raw = normalize(text)
      if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return JSON.stringify({error: 'not a JSON or YAML object'})
      if (raw.swagger !== undefined || typeof raw.openapi !== 'string' || !raw.openapi.startsWith('3')) {
        return JSON.stringify({error: 'not an OpenAPI 3 document (Mintlify reads OpenAPI 3.0 and 3.1 only)'})
      }
      try {
        checkForExternalRefs(raw)
      } catch (error) { // Mintlify's words: "External $ref references are not allowed. Found 1 …"
        return JSON.stringify({error: `Mintlify refuses it: ${String(error.message).split('\n').slice(0, 4).join(' ')}`})
      }
      const broken = danglingRefs(raw)
      const resolved = resolveReferences(raw)
      broken.push(...resolved.errors.map((e) => e.message).slice(0, 3))
      // A schema that holds itself (a tree's `children`) ends where it recurs, as @mintlify/common's
      // truncateCircularReferences ends it: the converter, given the cycle, reduces it past its
      // depth limit and mangles every level (the shared object is changed at each).
      spec = withoutHidden(truncateCircularReferences(resolved.schema))
      spec.docschatErrors = broken
      SPECS.set(key, spec)
      while (SPECS.size > KEEP) SPECS.delete(SPECS.keys().next().value)
    }
    const pages = spec.paths || spec.webhooks ? generateOpenApiPages({spec: {paths: {}, ...spec}, specFilePath: file}) : []
    return JSON.stringify({
      errors: spec.docschatErrors,
      pages: pages.map((page) => ({
        title: page.title || '', description: page.description || '', href: page.href, method: page.method,
        path: page.path, tag: page.tag || '', hidden: page.hidden, deprecated: Boolean(page.deprecated),
        // The front matter of the MDX file Mintlify's prebuild writes for the page (x-mint.metadata's
        // title, description, noindex, groups… over the operation's); x-mint.content, its body, is
        // read by openapiBlocks.
        front: frontMatter(page)
      }))
    })
  } catch (error) {
    return JSON.stringify({error: String((error && error.message) || error).slice(0, 300)})
  }
}

function frontMatter(page) {
  try {
    return buildGeneratedMdxContent({...page, xMintContent: undefined})
  } catch (error) { // metadata js-yaml cannot write: none (its `groups` unknown, the page is internal)
    return null
  }
}

function typeOf(schemas) {
  const names = schemas.map((schema) => {
    if (schema.type === 'array') {
      const items = Array.isArray(schema.items) ? typeOf(schema.items) : 'any'
      return items.includes(' | ') ? `(${items})[]` : `${items}[]`
    }
    // A string's format beside its type, as Mintlify's field shows it: string<date-time>.
    return schema.type === 'string' && typeof schema.format === 'string' ? `string<${schema.format}>` : schema.type
  })
  return [...new Set(names)].join(' | ')
}

let plain = (value) => value // the page reader's escaping of a line of text (set by openapiBlocks)

function line(out, value) {
  out.push(['text', plain(value), 0])
}

function literal(value) {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

// The lines a field shows, as blocks: its header line, description, options and limits, then its
// child fields (an object's properties, an array's items' properties).
function field(name, schemas, out, read, depth, state) {
  if (state.fields++ >= MAX_FIELDS) return
  const first = schemas[0] || {type: 'any'}
  const header = [name, typeOf(schemas)]
  if (first.required) header.push('required')
  if (first.deprecated) header.push('deprecated')
  const fallback = first.default !== undefined ? first.default : first['x-default']
  if (fallback !== undefined) header.push(`default: ${literal(fallback)}`)
  line(out, header.join(' '))
  const described = new Set() // `string | null`: each option carries the field's description
  for (const schema of schemas) {
    const description = typeof schema.description === 'string' ? schema.description.trim() : ''
    if (description && !described.has(description)) read(description, out)
    described.add(description)
    let item = schema // an array's options are its items' (`enum<string>[]`)
    while (item.type === 'array' && Array.isArray(item.items) && item.items.length) item = item.items[0]
    const options = item['x-mint-enum'] || item.enum
    if (Array.isArray(options) && options.length) line(out, `Available options: ${options.map(literal).join(', ')}`)
    if (schema.const !== undefined) line(out, `Allowed value: ${literal(schema.const)}`)
    const low = schema.minimum, high = schema.maximum
    if (low !== undefined || high !== undefined) {
      line(out, `Required range: ${low !== undefined ? `${low} <= ` : ''}x${high !== undefined ? ` <= ${high}` : ''}`)
    }
    const shortest = schema.minLength, longest = schema.maxLength
    if (shortest !== undefined && longest !== undefined) line(out, `Required string length: ${shortest} - ${longest}`)
    else if (shortest !== undefined) line(out, `Minimum string length: ${shortest}`)
    else if (longest !== undefined) line(out, `Maximum string length: ${longest}`)
  }
  if (depth >= MAX_DEPTH) return
  for (const schema of schemas) {
    let inner = schema
    while (inner.type === 'array' && Array.isArray(inner.items) && inner.items.length) inner = inner.items[0]
    if (inner.type === 'object' && inner.properties) {
      for (const [child, childSchemas] of Object.entries(inner.properties)) {
        if (Array.isArray(childSchemas)) field(child, childSchemas, out, read, depth + 1, state)
      }
    }
  }
}

// The fields of a body or response schema: an object's properties at the top (as Mintlify lists
// them), any other schema as one unnamed field; each option of a oneOf after its title.
function fields(schemas, out, read, state) {
  schemas.forEach((schema, index) => {
    if (schemas.length > 1) line(out, schema.title || `Option ${index + 1}`)
    if (schema.type === 'object' && schema.properties) {
      if (typeof schema.description === 'string' && schema.description.trim()) read(schema.description, out)
      for (const [name, child] of Object.entries(schema.properties)) if (Array.isArray(child)) field(name, child, out, read, 1, state)
    } else if (schema.type === 'array' || schema.type === 'file' || schema.type !== 'any') {
      field('body', [schema], out, read, 1, state)
    }
  })
}

// The blocks ([kind, text, level]) of the API page for `method path` of the spec loaded under
// `key`; `read(markdown, out)` adds a description's blocks (the page reader's CommonMark),
// `readMdx(mdx, out)` the blocks of x-mint.content (MDX, read as a page is; false when it does not
// parse). `options.description`: the operation's description first (true), none (false), or this
// text instead (x-mint.metadata's, a generated page's front matter); `options.content`: its
// x-mint.content after it, before the fields (Mintlify's prebuild writes it as the body of the
// generated page; its api-playground/openapi-setup.mdx: "Add content before the auto-generated API
// documentation using `x-mint: content`").
export function openapiBlocks(key, method, path, read, options = {}, escape = (value) => value, readMdx = () => true) {
  plain = escape
  const spec = SPECS.get(key)
  if (!spec) return {error: 'spec not loaded'}
  if (method === 'webhook') method = Object.keys((spec.webhooks || {})[path] || {}).find((m) => m !== 'parameters') || 'post'
  const endpoint = OpenApiToEndpointConverter.convert(spec, path, method.toLowerCase(), true)
  const operation = (((endpoint.type === 'webhook' ? spec.webhooks : spec.paths) || {})[path] || {})[method.toLowerCase()] || {}
  const out = []
  const state = {fields: 0}
  const description = typeof options.description === 'string' ? options.description
    : options.description === false ? '' : endpoint.description
  if (typeof description === 'string' && description.trim()) read(description, out)
  const xMint = operation['x-mint']
  let contentError = false
  if (options.content && xMint && typeof xMint === 'object' && typeof xMint.content === 'string' && xMint.content.trim()) {
    contentError = !readMdx(xMint.content, out)
  }
  line(out, `${endpoint.type === 'webhook' ? 'WEBHOOK' : method.toUpperCase()} ${path}${endpoint.deprecated ? ' deprecated' : ''}`)
  const security = endpoint.request.security || []
  if (security.some((option) => Object.values(option.parameters || {}).some((group) => Object.keys(group || {}).length))) {
    out.push(['heading', '## Authorizations', 2, 'Authorizations'])
    for (const option of security) {
      for (const [where, group] of Object.entries(option.parameters || {})) {
        for (const [name, scheme] of Object.entries(group || {})) {
          const kind = scheme.type === 'http' ? (scheme.scheme === 'basic' ? 'Basic' : 'Bearer') : scheme.type === 'oauth2' ? 'OAuth2' : 'string'
          line(out, `${name} string ${where} required`)
          if (scheme.description) read(scheme.description, out)
          else if (kind === 'Bearer') line(out, 'Bearer authentication header of the form Bearer <token>, where <token> is your auth token.')
          else if (kind === 'Basic') line(out, 'Basic authentication header of the form Basic <encoded-value>, where <encoded-value> is the base64-encoded string username:password.')
        }
      }
    }
  }
  for (const [where, label] of SECTIONS) {
    const group = endpoint.request.parameters[where] || {}
    const names = Object.keys(group)
    if (!names.length) continue
    out.push(['heading', `## ${label}`, 2, label])
    for (const name of names) field(name, group[name].schema, out, read, 1, state)
  }
  for (const [contentType, content] of Object.entries(endpoint.request.body || {})) {
    out.push(['heading', '## Body', 2, 'Body'])
    line(out, contentType)
    if (content.description) read(content.description, out)
    fields(content.schemaArray, out, read, state)
  }
  for (const [code, body] of Object.entries(endpoint.response || {})) {
    const types = Object.entries(body)
    if (!types.length) continue
    for (const [contentType, content] of types) {
      out.push(['heading', `## Response ${code}`, 2, `Response ${code}`])
      line(out, contentType)
      if (content.description) read(content.description, out)
      fields(content.schemaArray, out, read, state)
    }
  }
  examples(endpoint, operation, out, read)
  return {blocks: out, truncated: state.fields > MAX_FIELDS, contentError}
}

// The side panel of the page, after the fields: the request's code samples (x-codeSamples or
// x-code-samples, as the converter reads them: a tab each, titled by its label or language) and
// the request body's example, then each response's. Only examples the spec writes (`examples`,
// `example`, or the schema's own `example`): without one Mintlify generates one from the schema,
// the field names already indexed above with placeholder values (`<string>`), and generates code
// (cURL, Python…) around it; neither is indexed.
function examples(endpoint, operation, out, read) {
  const samples = endpoint.request.codeSamples || []
  const requestBodies = Object.entries(endpoint.request.body || {})
  const request = (operation.requestBody && operation.requestBody.content) || {}
  const bodies = requestBodies.filter(([type]) => written(request[type]))
  if (samples.length || bodies.length) {
    out.push(['heading', '## Request example', 2, 'Request example'])
    for (const sample of samples.slice(0, MAX_EXAMPLES)) {
      line(out, sample.label || sample.lang)
      out.push(['code', fence(sample.lang, sample.source), 0])
    }
    for (const [type, content] of bodies) shownExamples(type, content.examples, out, read)
  }
  for (const [code, body] of Object.entries(endpoint.response || {})) {
    const response = ((operation.responses || {})[code] || {}).content || {}
    const shown = Object.entries(body).filter(([type]) => written(response[type]))
    if (!shown.length) continue
    out.push(['heading', `## Response example ${code}`, 2, `Response example ${code}`])
    for (const [type, content] of shown) shownExamples(type, content.examples, out, read)
  }
}

function written(media) {
  if (!media || typeof media !== 'object') return false
  const schema = media.schema && typeof media.schema === 'object' ? media.schema : {}
  const many = media.examples && typeof media.examples === 'object' ? Object.values(media.examples) : []
  return media.example !== undefined || many.some((e) => e && e.value !== undefined) || schema.example !== undefined ||
    (Array.isArray(schema.examples) && schema.examples[0] !== undefined)
}

// An example's value as the panel shows it: a string as written, anything else as indented JSON.
// Cut past MAX_EXAMPLE_CHARS at a line end (fence): an example can be a whole list of records,
// and the fields above already say what each holds; its first lines show its shape. None of the
// real sites' is that long: dify's 1,284 examples run to 3,167 characters (median 109),
// trigger.dev's 84 code samples to 778.
function shownExamples(type, found, out, read) {
  const entries = Object.entries(found || {}).slice(0, MAX_EXAMPLES)
  for (const [name, example] of entries) {
    const summary = typeof example.summary === 'string' && example.summary.trim() ? example.summary : ''
    if (entries.length > 1 || summary) line(out, summary || name)
    if (typeof example.description === 'string' && example.description.trim()) read(example.description, out)
    let text
    try {
      text = typeof example.value === 'string' ? example.value : JSON.stringify(example.value, null, 2)
    } catch (error) { // a YAML alias holding itself: no JSON, nothing the panel could show either
      continue
    }
    if (typeof text !== 'string') continue
    out.push(['code', fence(/json/i.test(type) ? 'json' : /ya?ml/i.test(type) ? 'yaml' : '', text), 0])
  }
}

// A fenced code block of `text` (cut past MAX_EXAMPLE_CHARS at a line end, `…` after it): a
// fence longer than any run of backticks in it.
function fence(language, text) {
  let body = String(text)
  if (body.length > MAX_EXAMPLE_CHARS) {
    const end = body.lastIndexOf('\n', MAX_EXAMPLE_CHARS)
    body = body.slice(0, end > MAX_EXAMPLE_CHARS / 2 ? end : MAX_EXAMPLE_CHARS) + '\n…'
  }
  const longest = Math.max(2, ...(body.match(/`+/g) || []).map((run) => run.length))
  const ticks = '`'.repeat(longest + 1)
  const lang = /^[\w.+#-]{1,40}$/.test(language) ? language : ''
  return `${ticks}${lang}\n${body}${body.endsWith('\n') ? '' : '\n'}${ticks}`
}
