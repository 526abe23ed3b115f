// A blog published under its own route (`news`), its posts named as Jest's and others' are:
// by date, by date in a folder, undated, and with a `slug` of their own.
module.exports = {
  title: 'Blog permalinks',
  url: 'https://example.com',
  baseUrl: '/',
  onBrokenLinks: 'ignore',
  presets: [['classic', {docs: {sidebarPath: false}, blog: {routeBasePath: 'news', blogSidebarCount: 0}}]],
};
