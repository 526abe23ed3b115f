// Pages in src/ (srcDir), published without `.html` (cleanUrls); a plain object, JavaScript.
export default {
  title: 'Src',
  srcDir: 'src',
  cleanUrls: true,
  srcExclude: ['parts/**'],
  themeConfig: {
    sidebar: [
      { text: 'Start', items: [{ text: 'Intro', link: '/intro' }, { text: 'Setup', link: '/guide/setup.md' }] },
    ],
  },
}
