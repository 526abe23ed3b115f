// A buildable Docusaurus 3 site (scripts/record_docusaurus_site.py builds it with the real Docusaurus).
module.exports = {
  title: "Acme",
  url: "https://acme.example",
  baseUrl: "/",
  onBrokenLinks: "warn", // no home page: the navbar's logo links to one
  presets: [["classic", { docs: { sidebarPath: "./sidebars.json" }, blog: false, pages: false }]],
};
