// The words a ```mermaid block draws, as mermaid 11.15.0 draws them (Mintlify's `<Mermaid>`, and
// Docusaurus's theme-mermaid). Mermaid needs a DOM, which V8 here has not, so each diagram type is
// read from its text: its labels kept, and what it never draws taken out: `%%` comments,
// `%%{init}%%` directives, `accTitle`/`accDescr` (the SVG's `<title>`/`<desc>`), the front matter's
// `config` (its `title` is drawn), styling lines (`classDef`, `style`, `class`, `:::name`), links and
// callbacks (`click`, `link`, `callback`: on hover or click only), and the ids a label or an alias
// stands in for (`start[Label]` draws "Label"). Recorded: tests/data/mintlify-mermaid's pages in
// tests/data/mintlify-mermaid.shown.json (scripts/record_mermaid.py). A type not read here
// (zenuml, …) stays as written but for its comments (known).

// A flowchart's header, `classDef`/`class`/`style`/`linkStyle`/`click`, `direction`, `end` lines.
const FLOW_HEADER = /^(?:flowchart|graph)(?:\s+\w+)?\s*;?\s*$/i
const FLOW_UNDRAWN = /^(?:classDef|class|style|linkStyle|click|direction|end)\b/
// A node's shape after its id, longest opening first, and the label it holds (quoted or not).
const SHAPE = /([A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*)\s*(@\{[^}]*\}|\(\(\(.*?\)\)\)|\(\(.*?\)\)|\(\[.*?\]\)|\[\[.*?\]\]|\[\(.*?\)\]|\{\{.*?\}\}|\[\/.*?[/\\]\]|\[\\.*?[/\\]\]|\[.*?\]|\(.*?\)|\{.*?\}|>.*?\])/g
// Styling on any diagram: a `:::name` class, a `classDef`/`class`/`style`/`cssClass` line.
const STYLE_CLASS = /:::[\w-]+/g
const STYLING = /^(?:classDef|class|cssClass|style|linkStyle)\b/
// `id["label"]` or `id[label]` (class, ER, radar, kanban): the label stands in for the id.
const BRACKET_LABEL = /([A-Za-z0-9_][\w-]*)\s*\[\s*(?:"([^"]*)"|([^\]"]*[^\]"\s][^\]"]*))\s*\]/g

function shapeLabel(shape) {
  if (shape.startsWith('@{')) {
    const label = shape.match(/label\s*:\s*(?:"([^"]*)"|'([^']*)'|([^,}]*))/)
    return label ? (label[1] ?? label[2] ?? label[3]).trim() : null
  }
  const inner = shape.replace(/^(?:\(\(\(|\(\(|\(\[|\[\[|\[\(|\{\{|\[\/|\[\\|[[({>])/, '').replace(/(?:\)\)\)|\)\)|\]\)|\]\]|\)\]|\}\}|[/\\]\]|[\])}])$/, '')
  return inner.trim().replace(/^"(.*)"$/, '$1')
}

// Words of `ids` taken out of a line but for its quoted text.
function withoutIds(line, ids) {
  if (!ids.size) return line
  return line.split(/("[^"]*")/).map((part, index) => (index % 2 ? part
    : part.replace(/[A-Za-z0-9_][\w-]*/g, (word) => (ids.has(word) ? '' : word)))).join('')
}

function flowchartDrawn(lines, undrawn = FLOW_UNDRAWN) {
  const labelled = new Set()
  for (const line of lines) for (const match of line.matchAll(SHAPE)) if (shapeLabel(match[2]) !== null) labelled.add(match[1])
  const out = []
  for (const line of lines) {
    const text = line.trim()
    if (FLOW_HEADER.test(text) || undrawn.test(text)) continue
    const subgraph = text.match(/^subgraph\s+(.*)$/)
    if (subgraph) {
      const titled = subgraph[1].match(/^[\w-]+\s*\[\s*"?(.*?)"?\s*\]\s*$/)
      out.push(titled ? titled[1] : subgraph[1])
      continue
    }
    // Labels (a shape's, an edge's `|…|`) kept; elsewhere an id a label stands in for goes.
    const parts = []
    let at = 0
    const pieces = [...line.matchAll(new RegExp(`${SHAPE.source}|\\|[^|]*\\|`, 'g'))]
    // An id's word: `-` only between its letters (`a-->b` is `a`, an arrow, `b`).
    const bare = (segment) => segment.replace(/[A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*/g, (word) => (labelled.has(word) ? '' : word))
    for (const piece of pieces) {
      parts.push(bare(line.slice(at, piece.index)))
      parts.push(piece[1] ? ` ${shapeLabel(piece[2]) ?? piece[1]} ` : piece[0])
      at = piece.index + piece[0].length
    }
    parts.push(bare(line.slice(at)))
    out.push(parts.join('').replace(STYLE_CLASS, ''))
  }
  return out
}

// A sequence diagram: `participant A as Alice` (or `actor`, `create participant`) draws the alias;
// a participant's `@{…}` metadata, `activate`/`autonumber`/`destroy` lines and a link's URL are not
// drawn (`link A: Label @ url` shows "Label" in the participant's menu, `links A: {"Label": url}` too).
const PARTICIPANT = /^(?:create\s+)?(?:participant|actor)\s+([^\s@]+)(?:@\{[^}]*\})?(?:\s+as\s+(.*))?$/

function sequenceDrawn(lines) {
  const aliased = new Set()
  for (const line of lines) {
    const participant = line.trim().match(PARTICIPANT)
    if (participant && participant[2] !== undefined) aliased.add(participant[1])
  }
  const out = []
  for (const line of lines) {
    const text = line.trim()
    if (/^sequenceDiagram\b/.test(text) || /^(?:activate|deactivate|autonumber|destroy|properties|details)\b/.test(text)) continue
    const participant = text.match(PARTICIPANT)
    if (participant) { out.push(participant[2] ?? participant[1]); continue }
    const link = text.match(/^links?\s+[^:]*:\s*(.*)$/)
    if (link) {
      out.push(text.startsWith('links') ? [...link[1].matchAll(/"([^"]*)"\s*:/g)].map((name) => name[1]).join(' ') : link[1].replace(/\s*@.*$/, ''))
      continue
    }
    const colon = line.indexOf(':')
    const head = colon < 0 ? line : line.slice(0, colon)
    out.push(head.replace(/[^\s\-<>+)(x:,]+/g, (word) => (aliased.has(word) ? '' : word)) + (colon < 0 ? '' : line.slice(colon)))
  }
  return out
}

// Class, ER, radar and kanban diagrams: `id["label"]` draws the label, and the id is drawn nowhere.
function labelledDrawn(lines, undrawn) {
  const labelled = new Set()
  for (const line of lines) for (const match of line.matchAll(BRACKET_LABEL)) labelled.add(match[1])
  const out = []
  for (const line of lines.slice(1)) {
    if (undrawn.test(line.trim())) continue
    const shown = line.replace(STYLE_CLASS, '').replace(BRACKET_LABEL, (all, id, quoted, bare) => ` "${quoted ?? bare.trim()}" `)
    out.push(withoutIds(shown, labelled))
  }
  return out
}

// A state diagram: `state "Label" as id` draws the label; a `<<fork>>`/`<<join>>`/`<<choice>>`
// state is a bar or a diamond, its id drawn nowhere.
function stateDrawn(lines) {
  const hidden = new Set()
  for (const line of lines) {
    const named = line.trim().match(/^state\s+"[^"]*"\s+as\s+([\w-]+)/) || line.trim().match(/^state\s+([\w-]+)\s*<<\w+>>/)
    if (named) hidden.add(named[1])
  }
  // A composite state (`state X {`) given a description (`X : text`) draws the text as its title.
  for (const line of lines) {
    const described = line.trim().match(/^([\w-]+)\s*:/)
    if (described && lines.some((other) => new RegExp(`^\\s*state\\s+${described[1]}\\s*\\{`).test(other))) hidden.add(described[1])
  }
  const out = []
  for (const line of lines.slice(1)) {
    const text = line.trim()
    if (STYLING.test(text) || /^(?:direction|end note)\b/.test(text) || /^state\s+[\w-]+\s*<<\w+>>/.test(text)) continue
    const named = text.match(/^state\s+"([^"]*)"\s+as\s+[\w-]+(.*)$/)
    out.push(withoutIds(named ? `${named[1]} ${named[2]}` : line.replace(STYLE_CLASS, ''), hidden))
  }
  return out
}

// A gantt chart draws its title, sections and task names; a task's `: tags, id, start, length`
// (after the colon) and the chart's settings are not drawn as written.
function ganttDrawn(lines) {
  const out = []
  for (const line of lines.slice(1)) {
    const text = line.trim()
    if (/^(?:dateFormat|axisFormat|tickInterval|excludes|includes|todayMarker|weekday|weekend|click|displayMode|inclusiveEndDates|topAxis)\b/.test(text)) continue
    if (/^(?:title|section)\b/.test(text)) out.push(line)
    else out.push(line.replace(/:.*$/, ''))
  }
  return out
}

// A mind map's node: `id((Label))`, `id(Label)`, `id[Label]`, `id{{Label}}`, `id))Label((`,
// `id)Label(` draw the label; `::icon(…)` and `:::name` lines are not drawn.
const MINDMAP_NODE = /^(\s*)[^\s()[\]{}]*\s*(?:\(\(|\)\)|\{\{|[([)])(.*?)(?:\)\)|\(\(|\}\}|[)\](])\s*$/

function mindmapDrawn(lines) {
  const out = []
  for (const line of lines.slice(1)) {
    const text = line.trim()
    if (text.startsWith('::icon(') || text.startsWith(':::')) continue
    const node = line.match(MINDMAP_NODE)
    out.push(node ? `${node[1]}${node[2].trim().replace(/^"(.*)"$/, '$1')}` : line.replace(STYLE_CLASS, ''))
  }
  return out
}

// Kanban: a card's metadata draws its `assigned` and `ticket` values (priority is a colour, an icon
// no text); its `label` stands in for the card's text.
function kanbanDrawn(lines) {
  return labelledDrawn(lines.map((line) => {
    const meta = line.match(/@\{([^}]*)\}/)
    if (!meta) return line
    const field = (name) => {
      const found = meta[1].match(new RegExp(`\\b${name}\\s*:\\s*(?:'([^']*)'|"([^"]*)"|([^,}]*))`))
      return found ? (found[1] ?? found[2] ?? found[3]).trim() : undefined
    }
    let shown = line.replace(meta[0], ['assigned', 'ticket'].map(field).filter(Boolean).map((value) => ` ${value}`).join(''))
    const label = field('label')
    if (label !== undefined) shown = /\[[^\]]*\]/.test(shown) ? shown.replace(/\[[^\]]*\]/, `["${label}"]`) : shown.replace(/^(\s*[\w-]+)/, `$1["${label}"]`)
    return shown
  }), STYLING)
}

// A block diagram is read as a flowchart; a composite `block:id:n` draws no id.
function blockDrawn(lines) {
  const composite = new Set(lines.map((line) => line.trim().match(/^block:([\w-]+)/)).filter(Boolean).map((found) => found[1]))
  return flowchartDrawn(lines.slice(1).map((line) => line.replace(/^(\s*)block:[\w-]+(?::\d+)?/, '$1')), /^(?:classDef|class|style|columns|space|end)\b/)
    .map((line) => withoutIds(line, composite))
}

// C4: an element's or a relation's ids (its unquoted arguments) and `$name=` options are not drawn;
// its quoted label, description and technology are. `Update…Style`, `UpdateLayoutConfig`,
// `Add…Tag` lines are styling.
function c4Drawn(lines) {
  const out = []
  for (const line of lines.slice(1)) {
    const text = line.trim()
    if (/^(?:Update\w*|Add\w*Tag)\s*\(/.test(text)) continue
    const call = line.match(/^(\s*\w+\s*\()(.*)(\)\s*\{?\s*)$/)
    if (!call) { out.push(line); continue }
    const args = call[2].match(/"[^"]*"|[^,]+/g) || []
    out.push(call[1] + args.map((arg) => arg.trim()).filter((arg) => arg.startsWith('"')).join(', ') + call[3])
  }
  return out
}

// Architecture: groups, services and junctions draw their `[label]` alone (ids and icon names
// not); edges draw nothing.
function architectureDrawn(lines) {
  return lines.slice(1).map((line) => [...line.matchAll(/\[([^\]]*)\]/g)].map((label) => label[1]).join(' '))
}

const DRAWN = {
  flowchart: (lines) => flowchartDrawn(lines),
  graph: (lines) => flowchartDrawn(lines),
  sequencediagram: sequenceDrawn,
  classdiagram: (lines) => labelledDrawn(lines, /^(?:classDef|cssClass|style|click|callback|link|direction)\b/),
  'classdiagram-v2': (lines) => labelledDrawn(lines, /^(?:classDef|cssClass|style|click|callback|link|direction)\b/),
  erdiagram: (lines) => labelledDrawn(lines, /^(?:classDef|class|style|direction)\b/),
  'radar-beta': (lines) => labelledDrawn(lines, /^(?:max|min|ticks|graticule|showLegend)\b/).map((line) => line.replace(/\{[^}]*\}/g, '')),
  kanban: kanbanDrawn,
  statediagram: stateDrawn,
  'statediagram-v2': stateDrawn,
  gantt: ganttDrawn,
  mindmap: mindmapDrawn,
  'block-beta': blockDrawn,
  block: blockDrawn,
  'architecture-beta': architectureDrawn,
  gitgraph: (lines) => lines.slice(1).map((line) => line.replace(/\bmsg:\s*"[^"]*"/g, '')),
  quadrantchart: (lines) => lines.slice(1).filter((line) => !STYLING.test(line.trim()))
    .map((line) => line.replace(STYLE_CLASS, '').replace(/(\])[^\]]*$/, '$1')),
  'treemap-beta': (lines) => lines.filter((line) => !STYLING.test(line.trim())).map((line) => line.replace(STYLE_CLASS, '')),
}

function diagramDrawn(lines) {
  const first = lines.findIndex((line) => line.trim())
  if (first < 0) return lines
  const kind = lines[first].trim().split(/\s+/)[0].toLowerCase()
  if (kind.startsWith('c4')) return c4Drawn(lines.slice(first))
  return DRAWN[kind] ? DRAWN[kind](lines.slice(first)) : lines
}

// The front matter (`---` … `---` before the diagram): its `title` is drawn, its `config` not.
function frontMatter(lines) {
  const first = lines.findIndex((line) => line.trim())
  if (first < 0 || lines[first].trim() !== '---') return {title: null, rest: lines}
  const close = lines.findIndex((line, index) => index > first && line.trim() === '---')
  if (close < 0) return {title: null, rest: lines}
  const titled = lines.slice(first + 1, close).map((line) => line.match(/^title:\s*(.*)$/)).find(Boolean)
  const title = titled ? titled[1].replace(/^(["'])(.*)\1\s*(?:#.*)?$/, '$2').replace(/\s+#.*$/, '') : null
  return {title, rest: lines.slice(close + 1)}
}

export function mermaidDrawn(code) {
  const {title, rest} = frontMatter(code.split('\n'))
  const out = []
  let until = null // the end of a directive or a description spanning lines
  for (const line of rest) {
    const text = line.trim()
    if (until) {
      if (until.test(text)) until = null
    } else if (text.startsWith('%%{') && !text.includes('}%%')) until = /\}%%/
    else if (/^accDescr\s*\{/.test(text) && !text.includes('}')) until = /\}/
    else if (!text.startsWith('%%') && !/^acc(?:Title|Descr)\s*[:{]/.test(text)) out.push(line)
  }
  const drawn = diagramDrawn(out)
  return (title ? [title, ...drawn] : drawn).join('\n')
}
