// Every entry hidden but `writing`: Nextra 4.6.1's breadcrumb reads a folder's first shown entry, and
// a folder showing none fails to prerender its pages (reading 'route' of undefined).
export default {
  '*': { display: 'hidden' },
  writing: { title: 'Writing pages', display: 'normal' },
}
