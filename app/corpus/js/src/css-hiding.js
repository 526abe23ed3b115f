// `display` values whose box Chromium does not render, nor anything it holds: `none`, and a table
// column's (`table-column`, `table-column-group`: a column has no content; innerText leaves it out
// even outside a table, the `css-display-table-column` probes).
export const DISPLAY_HIDES = new Set(['none', 'table-column', 'table-column-group'])

// Whether a value of these properties hides: `display: none` (or a column), `content-visibility:
// hidden`, `visibility: hidden` or `collapse`.
export function hiding(key, value) {
  return key === 'visibility' ? value === 'hidden' || value === 'collapse' : key === 'display' ? DISPLAY_HIDES.has(value) : value === 'hidden'
}
