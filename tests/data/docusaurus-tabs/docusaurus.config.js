// A buildable Docusaurus 3 site (scripts/record_docusaurus_tabs_site.py builds it with the real
// Docusaurus): Tabs named by their `values` prop or by their TabItems' `label ?? value`.
module.exports = {
  title: "Tabs",
  url: "https://tabs.example",
  baseUrl: "/",
  onBrokenLinks: "warn",
  presets: [["classic", {docs: {sidebarPath: false}, blog: false, pages: false}]],
};
