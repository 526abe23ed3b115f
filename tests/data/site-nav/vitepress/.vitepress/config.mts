import { defineConfig } from 'vitepress'

// As vitest's docs write it: a function returning defineConfig({...}), srcExclude a literal array.
export default ({ mode }: { mode: string }) => defineConfig({
  title: 'Fixture',
  ignoreDeadLinks: true, // a link to a rewritten page's source path leads nowhere: recorded as such
  srcExclude: [
    '**/parts/*', // pasted into pages, never pages of their own
    'AGENTS.md',
    './notes/draft.md',
  ],
  /* rewrites: a static one and path-to-regexp parameters */
  rewrites: {
    'notes/kept.md': 'kept.md',
    'packages/:pkg/src/:slug*': ':pkg/:slug*',
  },
  locales: {
    root: { label: 'English', lang: 'en-US' },
    zh: { label: '简体中文', lang: 'zh' },
  },
  themeConfig: {
    sidebar: {
      // A page shows the sidebar of the longest key its path starts with, whatever the keys' order.
      '/': [
        { text: 'Home', link: '/' },
        { text: 'Notes', link: '/kept', items: [{ text: 'Lines', link: '/shared/lines' }, { text: 'Home page', link: '/home' }] },
        { text: 'Elsewhere', items: [{ text: 'Anchors again', link: '/guide/anchors' }] },
      ],
      '/guide/': [
        {
          text: 'Guide',
          items: [
            { text: 'Regions', link: '/guide/regions' },
            { text: 'Boxes', link: '/guide/boxes.md' },
            { text: 'Snippets', link: '/guide/snippets' },
            { text: 'No sidebar', link: '/guide/no-sidebar' }, // its front matter says sidebar: false
            { text: 'Deeper', collapsed: true, base: '/guide/', items: [
              { text: 'Anchors', link: 'anchors' },
              { text: 'Links', link: '/links.html' },
            ] },
          ],
        },
      ],
      // Session 36's adversary pages (hidden and shown markers of comments, boxes, code, HTML, Vue).
      '/probe/': [{ text: 'Probes', items: [
        { text: 'code', link: '/probe/code' },
        { text: 'comments', link: '/probe/comments' },
        { text: 'containers', link: '/probe/containers' },
        { text: 'css', link: '/probe/css' },
        { text: 'css2', link: '/probe/css2' },
        { text: 'home2', link: '/probe/home2' },
        { text: 'html', link: '/probe/html' },
        { text: 'inc/part', link: '/probe/inc/part' },
        { text: 'includes', link: '/probe/includes' },
        { text: 'layout-false', link: '/probe/layout-false' },
        { text: 'module', link: '/probe/module' },
        { text: 'page-layout', link: '/probe/page-layout' },
        { text: 'scoped', link: '/probe/scoped' },
        { text: 'toc', link: '/probe/toc' },
        { text: 'vue', link: '/probe/vue' },
        { text: 'vue2', link: '/probe/vue2' },
      ] }],
      '/alpha/': {
        base: '/alpha/',
        items: [{ text: 'Alpha package', items: [{ text: 'Overview', link: '/' }, { text: 'Usage', link: 'usage' }] }],
      },
    },
  },
})
