// Tailwind's display and visibility utilities, as Mintlify writes them (it compiles Tailwind v3 over
// each page: @mintlify/common's getDynamicTailwindCss; elsewhere a class so named is read alike, the
// safe reading). Tailwind cannot run in V8 (postcss, Node's APIs), so its class syntax is read here:
// `variant:…:!utility`, arbitrary properties (`[display:none]`), the utilities that hide (`hidden`,
// `table-column`, `collapse`, `invisible`) and those that show again.
//
// What a visitor sees depends on the view: the window's width, dark mode, reduced motion, the
// orientation, more contrast, forced colors. An element is hidden when it is hidden in every view
// its classes tell apart (`md:hidden max-md:hidden` is, though each alone spares some visitor; so
// is `md:hidden` around `max-md:hidden`: `hiddenEverywhere` takes the classes of the element and
// those around it). In each view the classes that apply compete as Tailwind writes them: an
// `!important` one wins, then the one Tailwind writes later (variants after plain utilities, in its
// order of variants: motion, contrast, dark, widths (`max-*` from the widest, then the others from
// the narrowest), orientation, forced colors), then, among the same variants, the utility written
// later (`hidden` after every other display). A state that needs a hand (`hover:`, `group-focus:`),
// `print:` or a pseudo-element (`before:`) never applies. Any other variant (`first:`, `*:`,
// `[&_p]:`, `supports-[…]:`, `rtl:`) is read as applying to a class that hides, to the element
// itself, and last; never to one that shows (more hidden, never less). A `visible` class is not read
// as showing what a hidden parent holds (a site without Tailwind would not show it), only as
// undoing the element's own `invisible`. The `css-tailwind-*` probes, compiled by Tailwind 3.4.17
// as Mintlify compiles them and read in Chromium in every view their CSS tells apart.
import {hiding} from './css-hiding.js'

const SCREENS = {sm: 640, md: 768, lg: 1024, xl: 1280, '2xl': 1536}
const UNSHOWN = /^(?:(?:group-|peer-)?(?:hover|focus|focus-visible|focus-within|active|visited|target)|print|before|after|placeholder|file|marker|selection|first-line|first-letter|backdrop)$/
// Tailwind 3.4's display utilities in the order it writes them (a later one wins among equals).
const DISPLAY_ORDER = ['block', 'inline-block', 'inline', 'flex', 'inline-flex', 'table', 'inline-table', 'table-caption',
  'table-cell', 'table-column', 'table-column-group', 'table-footer-group', 'table-header-group', 'table-row-group',
  'table-row', 'flow-root', 'grid', 'inline-grid', 'contents', 'list-item', 'none']
const VISIBILITY_ORDER = ['visible', 'hidden', 'collapse']
const KEYS = {display: 'display', visibility: 'visibility', 'content-visibility': 'contentVisibility'}
// Settings of a view other than its width, each with the values a visitor may have.
const SETTINGS = {dark: [false, true], motion: ['safe', 'reduce'], orientation: ['portrait', 'landscape'],
  contrast: [false, true], forced: [false, true]}
const DEVICE = {
  'motion-safe': {rank: 2, setting: 'motion', value: 'safe'}, 'motion-reduce': {rank: 3, setting: 'motion', value: 'reduce'},
  'contrast-more': {rank: 4, setting: 'contrast', value: true}, dark: {rank: 5, setting: 'dark', value: true},
  portrait: {rank: 7, setting: 'orientation', value: 'portrait'}, landscape: {rank: 7.5, setting: 'orientation', value: 'landscape'},
  'forced-colors': {rank: 9, setting: 'forced', value: true}
}

// A width variant: {rank, width: [px, 'min' | 'below' | 'upTo']}, or undefined.
function widthVariant(variant) {
  const screen = /^(max-)?(sm|md|lg|xl|2xl)$/.exec(variant)
  const arbitrary = /^(min|max)-\[(\d+(?:\.\d+)?)(px|rem|em)\]$/.exec(variant)
  if (!screen && !arbitrary) return undefined
  const px = screen ? SCREENS[screen[2]] : parseFloat(arbitrary[2]) * (arbitrary[3] === 'px' ? 1 : 16)
  const scaled = Math.min(px, 1e6) / 1e6
  const below = screen ? Boolean(screen[1]) : arbitrary[1] === 'max'
  return {rank: below ? 6 + 0.4 * (1 - scaled) : 6.5 + 0.4 * scaled, width: [px, screen ? (below ? 'below' : 'min') : below ? 'upTo' : 'min']}
}

// A class as Tailwind reads it: {variants, important, key, value, hides, ranks, known} (null when
// it sets neither `display`, `visibility` nor `content-visibility`). Variants are split at colons
// outside brackets.
export function tailwindClass(name) {
  const parts = []
  let depth = 0
  let start = 0
  for (let i = 0; i < name.length; i++) {
    if (name[i] === '[') depth++
    else if (name[i] === ']') depth = Math.max(0, depth - 1)
    else if (name[i] === ':' && depth === 0) {
      parts.push(name.slice(start, i))
      start = i + 1
    }
  }
  let utility = name.slice(start)
  const important = utility.startsWith('!')
  if (important) utility = utility.slice(1)
  let property = ''
  let value = ''
  const arbitrary = /^\[([a-zA-Z-]+):(.+)\]$/.exec(utility)
  if (arbitrary) {
    property = arbitrary[1].toLowerCase()
    value = arbitrary[2].replace(/_/g, ' ').trim().toLowerCase()
  } else if (utility === 'hidden') [property, value] = ['display', 'none']
  else if (DISPLAY_ORDER.includes(utility)) [property, value] = ['display', utility]
  else if (utility === 'invisible') [property, value] = ['visibility', 'hidden']
  else if (utility === 'visible' || utility === 'collapse') [property, value] = ['visibility', utility]
  const key = KEYS[property]
  if (!key || !value) return null
  const hides = hiding(key, value)
  const variants = parts.map((v) => DEVICE[v] || widthVariant(v) || (UNSHOWN.test(v) ? {never: true} : {unknown: true}))
  // Where Tailwind writes it: its variants' places, the last first; an unread variant last of all.
  const ranks = variants.map((v) => (v.unknown ? Infinity : v.rank ?? 0)).sort((a, b) => b - a)
  const order = key === 'visibility' ? VISIBILITY_ORDER.indexOf(value) : key === 'display' ? DISPLAY_ORDER.indexOf(value) : -1
  return {variants, important, key, value, hides, ranks, order, written: parts.join(':')}
}

// Whether a class applies in a view.
function applies(c, view) {
  return c.variants.every((v) => {
    if (v.never) return false
    if (v.unknown) return c.hides
    if (v.setting) return view[v.setting] === v.value
    const [px, kind] = v.width
    return kind === 'min' ? view.width >= px : kind === 'below' ? view.width < px : view.width <= px
  })
}

// Whether `a` wins over `b` (both applying to one property in one view).
function wins(a, b) {
  if (a.important !== b.important) return a.important
  for (let i = 0; i < Math.max(a.ranks.length, b.ranks.length); i++) {
    if (a.ranks[i] === b.ranks[i]) continue
    return (a.ranks[i] ?? -1) > (b.ranks[i] ?? -1)
  }
  if (a.written === b.written && a.order >= 0 && b.order >= 0) return a.order > b.order
  return a.hides // an order the reader does not know: the one that hides
}

// The classes of an element that set these properties: {classes, display, visibility}, the last
// two 'none', 'some' or 'all': in how many of the views its own classes tell apart they hide the
// element (`display`) or its own text (`visibility`: by either property).
const NO_FRAME = Object.freeze({classes: [], display: 'none', visibility: 'none'})
const frames = new Map() // by the classes' text: a page repeats the same few
export function tailwindFrame(className) {
  const names = Array.isArray(className) ? className.map(String) : typeof className === 'string' ? className.split(/\s+/) : []
  if (!names.length) return NO_FRAME
  const key = names.join(' ')
  if (!frames.has(key)) {
    if (frames.size > 10000) frames.clear()
    frames.set(key, frameOf(names))
  }
  return frames.get(key)
}

function frameOf(names) {
  const classes = names.map(tailwindClass).filter(Boolean)
  if (!classes.length) return NO_FRAME
  const frame = {classes, display: 'none', visibility: 'none'}
  if (!classes.some((c) => c.hides)) return frame
  const views = viewsOf([frame])
  for (const kind of ['display', 'visibility']) {
    const hidden = views.filter((view) => displayHides(frame, view) || (kind === 'visibility' && visibilityHides(frame, view))).length
    frame[kind] = hidden === 0 ? 'none' : hidden === views.length ? 'all' : 'some'
  }
  return frame
}

// The value of a property the frame's classes give it in a view ('' when none applies).
function winner(frame, key, view) {
  let best = null
  for (const c of frame.classes) if (c.key === key && applies(c, view) && (!best || wins(c, best))) best = c
  return best
}

function displayHides(frame, view) {
  return ['display', 'contentVisibility'].some((key) => winner(frame, key, view)?.hides)
}

function visibilityHides(frame, view) {
  return Boolean(winner(frame, 'visibility', view)?.hides)
}

// Every view the frames' classes tell apart: widths on each side of each width they name, and
// each value of each other setting they name.
function viewsOf(frames) {
  const widths = new Set()
  const settings = new Set()
  for (const frame of frames) {
    for (const c of frame.classes) {
      for (const v of c.variants) {
        if (v.width) [v.width[0] - 0.5, v.width[0], v.width[0] + 0.5].forEach((w) => widths.add(w))
        if (v.setting) settings.add(v.setting)
      }
    }
  }
  let views = [...(widths.size ? widths : [1280])].map((width) => ({width}))
  for (const setting of settings) views = views.flatMap((view) => SETTINGS[setting].map((value) => ({...view, [setting]: value})))
  return views
}

// Whether the elements of `frames` (outermost first, the last the element itself) hide it in every
// view: some frame's display hides it, or (`text`: judged for its own text, else for the element
// and all it holds) some frame's visibility does.
export function hiddenEverywhere(frames, text) {
  return viewsOf(frames).every((view) => {
    if (frames.some((frame) => displayHides(frame, view))) return true
    if (!text) return false
    // A `visible` class undoes its element's `invisible`, never a parent's: read as inherited.
    return frames.some((frame) => visibilityHides(frame, view))
  })
}
