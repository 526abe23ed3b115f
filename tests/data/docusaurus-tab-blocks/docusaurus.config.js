// A buildable Docusaurus 3 site (scripts/record_docusaurus_tab_blocks_site.py builds it with the
// real Docusaurus and docusaurus-remark-plugin-tab-blocks): runs of ```js tab fences shown as tabs,
// as Jest's docs add the plugin (after npm2yarn); one label of the site's own.
module.exports = {
  title: "tab-blocks",
  url: "https://tab-blocks.example",
  baseUrl: "/",
  onBrokenLinks: "warn",
  presets: [["classic", {
    docs: {
      sidebarPath: false,
      remarkPlugins: [
        [require('@docusaurus/remark-plugin-npm2yarn'), {sync: true}],
        [require('docusaurus-remark-plugin-tab-blocks').default, {labels: [['py', 'Python']]}],
      ],
    },
    blog: false,
    pages: false,
  }]],
};
