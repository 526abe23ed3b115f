import { defineConfig } from 'vitepress'

// As vitest's docs write it: a function returning defineConfig({...}), srcExclude a literal array.
export default ({ mode }: { mode: string }) => defineConfig({
  title: 'Fixture',
  srcExclude: [
    '**/parts/*', // pasted into pages, never pages of their own
    'AGENTS.md',
    './notes/draft.md',
  ],
  themeConfig: { sidebar: [{ text: 'Guide', items: [{ text: 'Regions', link: '/guide/regions' }] }] },
})
