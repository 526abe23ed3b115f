// The navbar: tabs (type: 'page'), a hidden home, an external link, a menu of links.
export default {
  index: { type: 'page', display: 'hidden' },
  docs: { title: 'Documentation', type: 'page' },
  guide: { title: 'Guides', type: 'page' },
  about: { title: 'About us', type: 'page' },
  github: { title: 'GitHub', type: 'page', href: 'https://github.com/shuding/nextra' },
  more: { title: 'More', type: 'menu', items: { blog: { title: 'Blog', href: 'https://example.com/blog' }, team: { title: 'Team', href: '/about' } } },
}
