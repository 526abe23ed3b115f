// What Mintlify's code block shows of a fence's code (@mintlify/mdx 4.0.6's rehypeSyntaxHighlighting;
// recorded: tests/data/mintlify-codeblock/notation.mdx in tests/data/mintlify-codeblock.shown.json).
// Shiki and TypeScript cannot run here (their grammars and compiler are megabytes), so what their
// transformers take out is read from the code's text:
// - Shiki's notation (SHIKI_TRANSFORMERS: `[!code ++]`, `--`, `focus`, `highlight`, `hl`, each with
//   `:n`, any case) in a language Shiki highlights (not `text` nor one it does not know): the
//   notation goes, the comment when nothing else is left in it, the line when nothing is left on it;
//   `[!code error]`, `warning` and `word:` stay.
// - A `twoslash` block of TypeScript or JavaScript: twoslash 0.3's cuts (the code before
//   `// ---cut---`, after `// ---cut-after---`, between `---cut-start---` and `---cut-end---`), its
//   flags (`// @noErrors`, `// @errors: 2322`; not `@filename`) and query lines (`// ^?`). When
//   twoslash fails (an error the block does not declare) Mintlify shows the code as written: the
//   reader cannot tell, so it reads the cuts as made (more hidden, never less).
// - A `mermaid` block is a diagram (@mintlify/common's remarkMermaid, and Docusaurus's with
//   `markdown.mermaid`: mermaid 11.15.0 draws it in the
//   browser, which V8 here has not): its comments (`%% …`), directives (`%%{init: …}%%`) and
//   accessible title and description (`accTitle:`, `accDescr:`, `accDescr {…}`: the SVG's `<title>`
//   and `<desc>`) are not drawn, and go (recorded: tests/data/mintlify-mermaid.shown.json); in a
//   flowchart and a sequence diagram the ids a label or an alias stands in for go too (diagramDrawn).
import {DEFAULT_LANG_ALIASES} from '@mintlify/mdx/constants'

const PLAIN = new Set(['text', 'plaintext', 'txt', 'plain', 'ansi'])
const NOTATION = /\s*\[!code (?:\+\+|--|focus|highlight|hl)(?::\d+)?\]/gi
// A comment left empty, at the end of its line: `//`, `#`, `--`, `;`, `%`, `/* */`, `<!-- -->`.
const EMPTY_COMMENT = /\s*(?:\/\/|#|--|;{1,2}|%{1,2}|\/\*\s*\*\/|<!--\s*-->)\s*$/
const TWOSLASH = new Set(['ts', 'typescript', 'js', 'javascript', 'tsx', 'jsx'])
const CUT_BEFORE = /^\/\/\s?---cut(-before)?---$/
const CUT_AFTER = /^\/\/\s?---cut-after---$/
const CUT_START = /^\/\/\s?---cut-start---$/
const CUT_END = /^\/\/\s?---cut-end---$/
const FLAG = /^\/\/\s?@(\w+)(?::\s?(.+))?$/
const QUERY = /^\s*\/\/\s*\^(\?|\||\^+)( .*)?$/

function withoutNotation(lines) {
  const out = []
  for (const line of lines) {
    const taken = line.replace(NOTATION, '')
    if (taken === line) {
      out.push(line)
      continue
    }
    const shown = taken.replace(EMPTY_COMMENT, '')
    if (shown.trim() || !line.trim()) out.push(shown)
  }
  return out
}

function twoslashCut(lines) {
  let kept = lines.map(() => true)
  const starts = []
  for (const [index, line] of lines.entries()) {
    const comment = line.trim()
    if (CUT_BEFORE.test(comment)) kept = kept.map((keep, i) => keep && i > index)
    else if (CUT_AFTER.test(comment)) {
      kept = kept.map((keep, i) => keep && i < index)
      break
    } else if (CUT_START.test(comment)) starts.push(index)
    else if (CUT_END.test(comment) && starts.length) {
      const start = starts.pop()
      kept = kept.map((keep, i) => keep && (i < start || i > index))
    }
  }
  return lines.filter((line, index) => {
    const flag = line.match(FLAG)
    return kept[index] && !(flag && flag[1] !== 'filename') && !QUERY.test(line)
  })
}

// A flowchart's and a sequence diagram's words as mermaid 11 draws them: a node's label stands in
// for its id (`start[Label]` draws "Label"), an alias for a participant (`participant A as Alice`),
// and the header, `classDef`/`class`/`style`/`linkStyle`/`click` (a tooltip shows on hover only),
// `direction`, `end`, `activate` lines are not drawn. Read from the text (mermaid needs a DOM); other
// diagram types stay as written (known). Recorded: tests/data/mintlify-mermaid.shown.json.
const FLOW_HEADER = /^(?:flowchart|graph)(?:\s+\w+)?\s*;?\s*$/i
const FLOW_UNDRAWN = /^(?:classDef|class|style|linkStyle|click|direction|end)\b/
// A node's shape after its id, longest opening first, and the label it holds (quoted or not).
const SHAPE = /([A-Za-z0-9_][\w-]*)\s*(@\{[^}]*\}|\(\(\(.*?\)\)\)|\(\(.*?\)\)|\(\[.*?\]\)|\[\[.*?\]\]|\[\(.*?\)\]|\{\{.*?\}\}|\[\/.*?[/\\]\]|\[\\.*?[/\\]\]|\[.*?\]|\(.*?\)|\{.*?\}|>.*?\])/g

function shapeLabel(shape) {
  if (shape.startsWith('@{')) {
    const label = shape.match(/label\s*:\s*(?:"([^"]*)"|'([^']*)'|([^,}]*))/)
    return label ? (label[1] ?? label[2] ?? label[3]).trim() : null
  }
  const inner = shape.replace(/^(?:\(\(\(|\(\(|\(\[|\[\[|\[\(|\{\{|\[\/|\[\\|[[({>])/, '').replace(/(?:\)\)\)|\)\)|\]\)|\]\]|\)\]|\}\}|[/\\]\]|[\])}])$/, '')
  return inner.trim().replace(/^"(.*)"$/, '$1')
}

function flowchartDrawn(lines) {
  const labelled = new Set()
  for (const line of lines) for (const match of line.matchAll(SHAPE)) if (shapeLabel(match[2]) !== null) labelled.add(match[1])
  const out = []
  for (const line of lines) {
    const text = line.trim()
    if (FLOW_HEADER.test(text) || FLOW_UNDRAWN.test(text)) continue
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
    const bare = (segment) => segment.replace(/[A-Za-z0-9_][\w-]*/g, (word) => (labelled.has(word) ? '' : word))
    for (const piece of pieces) {
      parts.push(bare(line.slice(at, piece.index)))
      parts.push(piece[1] ? ` ${shapeLabel(piece[2]) ?? piece[1]} ` : piece[0])
      at = piece.index + piece[0].length
    }
    parts.push(bare(line.slice(at)))
    out.push(parts.join(''))
  }
  return out
}

function sequenceDrawn(lines) {
  const aliased = new Set()
  for (const line of lines) {
    const alias = line.trim().match(/^(?:participant|actor)\s+(\S+)\s+as\s+/)
    if (alias) aliased.add(alias[1])
  }
  const out = []
  for (const line of lines) {
    const text = line.trim()
    if (/^sequenceDiagram\b/.test(text) || /^(?:activate|deactivate|autonumber|create|destroy|link|links|properties|details)\b/.test(text)) continue
    const alias = text.match(/^(?:participant|actor)\s+\S+\s+as\s+(.*)$/)
    if (alias) { out.push(alias[1]); continue }
    const colon = line.indexOf(':')
    const head = colon < 0 ? line : line.slice(0, colon)
    out.push(head.replace(/[^\s\-<>+)(x:]+/g, (word) => (aliased.has(word) ? '' : word)) + (colon < 0 ? '' : line.slice(colon)))
  }
  return out
}

function diagramDrawn(lines) {
  const first = lines.find((line) => line.trim())
  const kind = first ? first.trim().split(/\s+/)[0].toLowerCase() : ''
  if (kind === 'flowchart' || kind === 'graph') return flowchartDrawn(lines)
  if (kind === 'sequencediagram') return sequenceDrawn(lines)
  return lines
}

export function mermaidDrawn(code) {
  const out = []
  let until = null // the end of a directive or a description spanning lines
  for (const line of code.split('\n')) {
    const text = line.trim()
    if (until) {
      if (until.test(text)) until = null
    } else if (text.startsWith('%%{') && !text.includes('}%%')) until = /\}%%/
    else if (/^accDescr\s*\{/.test(text) && !text.includes('}')) until = /\}/
    else if (!text.startsWith('%%') && !/^acc(?:Title|Descr)\s*[:{]/.test(text)) out.push(line)
  }
  return diagramDrawn(out).join('\n')
}

export function mintlifyCode(code, lang, meta) {
  const given = (lang || '').toLowerCase()
  if (given === 'mermaid') return mermaidDrawn(code)
  const language = DEFAULT_LANG_ALIASES[given] ?? given
  let lines = code.split('\n')
  if ((meta || '').split(' ').some((word) => word.toLowerCase() === 'twoslash') && TWOSLASH.has(language)) {
    lines = twoslashCut(lines)
  }
  if (language in DEFAULT_LANG_ALIASES || Object.values(DEFAULT_LANG_ALIASES).includes(language)) {
    if (!PLAIN.has(language)) lines = withoutNotation(lines)
  }
  return lines.join('\n')
}
