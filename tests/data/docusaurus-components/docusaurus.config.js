// A buildable Docusaurus 3 site (scripts/record_docusaurus_components_site.py builds it with the
// real Docusaurus): the site's own components that take their children apart (typeorm's
// DatabaseTabs), and marker components that render nothing.
module.exports = {
  title: "Components",
  url: "https://components.example",
  baseUrl: "/",
  onBrokenLinks: "warn",
  presets: [["classic", {docs: {sidebarPath: false}, blog: false, pages: false}]],
};
