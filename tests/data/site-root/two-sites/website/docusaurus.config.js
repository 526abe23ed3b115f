module.exports = {
  title: 'Site',
  url: 'https://example.com',
  baseUrl: '/',
  presets: [['classic', {docs: {sidebarPath: './sidebars.js'}, blog: false}]],
};
