// A buildable Docusaurus 3 site (scripts/record_docusaurus_npm2yarn_site.py builds it with the real
// Docusaurus and @docusaurus/remark-plugin-npm2yarn): ```bash npm2yarn fences shown as tabs of the
// command and its conversions; the docs with the plugin's default converters, src/pages with one.
const npm2yarn = require('@docusaurus/remark-plugin-npm2yarn');

module.exports = {
  title: "npm2yarn",
  url: "https://npm2yarn.example",
  baseUrl: "/",
  onBrokenLinks: "warn",
  presets: [["classic", {
    docs: {sidebarPath: false, remarkPlugins: [[npm2yarn, {sync: true}]]},
    blog: false,
    pages: {remarkPlugins: [[require('@docusaurus/remark-plugin-npm2yarn'), {converters: ['pnpm']}]]},
  }]],
};
