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
//   and `<desc>`) are not drawn, and go; nor the ids a label stands in for (mermaid-drawn.js).
import {DEFAULT_LANG_ALIASES} from '@mintlify/mdx/constants'
import {mermaidDrawn} from './mermaid-drawn.js'

export {mermaidDrawn}

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
