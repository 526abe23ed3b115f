// A buildable Docusaurus 3 site in two languages and three versions of its docs
// (scripts/record_docusaurus_versions_site.py builds it with the real Docusaurus and records where
// each file is published). The default locale's docs root serves the last released version, 2.0.
module.exports = {
  title: "Acme",
  url: "https://acme.example",
  baseUrl: "/",
  onBrokenLinks: "warn",
  i18n: {defaultLocale: "en", locales: ["en", "fr"]},
  presets: [["classic", {docs: {sidebarPath: "./sidebars.json"}}]],
};
