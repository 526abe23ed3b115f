// What Docusaurus's code block shows of a fence's code: the lines holding a magic comment
// (`// highlight-next-line`, `# highlight-start`, its themeConfig.prism.magicComments) left out, as
// @docusaurus/theme-common 3.10.2's parseLines does (lib/utils/codeBlockUtils.js, ported verbatim
// below: that package imports React, so it is not bundled). A highlight range in the meta (`{1,3}`)
// turns the comments off: the code is shown as written. The language is the fence's, lower case,
// else Prism's default, `text`, which reads every popular comment style.
const popularCommentPatterns = {
  js: {start: '\\/\\/', end: ''},
  jsBlock: {start: '\\/\\*', end: '\\*\\/'},
  jsx: {start: '\\{\\s*\\/\\*', end: '\\*\\/\\s*\\}'},
  bash: {start: '#', end: ''},
  html: {start: '<!--', end: '-->'}
}
const commentPatterns = {
  ...popularCommentPatterns,
  lua: {start: '--', end: ''},
  wasm: {start: '\\;\\;', end: ''},
  tex: {start: '%', end: ''},
  vb: {start: "['‘’]", end: ''},
  vbnet: {start: "(?:_\\s*)?['‘’]", end: ''},
  rem: {start: '[Rr][Ee][Mm]\\b', end: ''},
  f90: {start: '!', end: ''},
  ml: {start: '\\(\\*', end: '\\*\\)'},
  cobol: {start: '\\*>', end: ''}
}
const LANGUAGES = {
  js: ['js', 'jsBlock'], javascript: ['js', 'jsBlock'], ts: ['js', 'jsBlock'], typescript: ['js', 'jsBlock'],
  jsx: ['js', 'jsBlock', 'jsx'], tsx: ['js', 'jsBlock', 'jsx'], html: ['js', 'jsBlock', 'html'],
  python: ['bash'], py: ['bash'], bash: ['bash'], markdown: ['html', 'jsx', 'bash'], md: ['html', 'jsx', 'bash'],
  tex: ['tex'], latex: ['tex'], matlab: ['tex'], lua: ['lua'], haskell: ['lua'], sql: ['lua', 'jsBlock'], wasm: ['wasm'],
  vb: ['vb', 'rem'], vba: ['vb', 'rem'], 'visual-basic': ['vb', 'rem'], vbnet: ['vbnet', 'rem'], batch: ['rem'],
  basic: ['rem', 'f90'], fsharp: ['js', 'ml'], ocaml: ['ml'], sml: ['ml'], fortran: ['f90'], cobol: ['cobol']
}
const metastringLinesRangeRegex = /\{(?<range>[\d,-]+)\}/

function getCommentPattern(languages, directives) {
  const commentPattern = languages.map((lang) => {
    const {start, end} = commentPatterns[lang]
    return `(?:${start}\\s*(${directives.join('|')})\\s*${end})`
  }).join('|')
  return new RegExp(`^\\s*(?:${commentPattern})\\s*$`)
}

// The code as shown: `directives` the magic comments' names (each `line`, `block.start`, `block.end`).
export function docusaurusCode(code, lang, meta, directives) {
  if (!directives.length || (meta && metastringLinesRangeRegex.test(meta))) return code
  const language = (lang || 'text').toLowerCase()
  let pattern
  try {
    pattern = getCommentPattern(LANGUAGES[language] || Object.keys(popularCommentPatterns), directives)
  } catch {
    return code // a directive that is no pattern: Docusaurus's build fails on it
  }
  return code.split(/\r?\n/).filter((line) => !pattern.test(line)).join('\n')
}
