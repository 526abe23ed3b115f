import { defineConfig } from 'vitepress'

export default defineConfig({
  title: 'Project',
  srcExclude: ['AGENTS.md'],
  themeConfig: { sidebar: [{ text: 'Guide', items: [{ text: 'Setup', link: '/guide/setup' }] }] },
})
