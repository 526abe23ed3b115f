// A buildable Docusaurus 3 site whose versions and locales are published at paths of their own
// (scripts/record_docusaurus_versions_site.py docusaurus-version-paths builds it with the real
// Docusaurus and records where each file is published): version 2.0, the last released, at
// /docs/stable/ (`versions.<v>.path`), the unreleased docs at /docs/dev/; the translations in
// `translations/` (i18n.path), each locale's folder named by its localeConfigs path; the default
// locale's copies of two docs give their own `slug` and `id`.
module.exports = {
  title: "Acme",
  url: "https://acme.example",
  baseUrl: "/",
  onBrokenLinks: "warn",
  i18n: {
    defaultLocale: "en",
    locales: ["en", "fr"],
    path: "translations",
    localeConfigs: {en: {path: "english"}, fr: {path: "francais"}},
  },
  presets: [["classic", {
    blog: false,
    docs: {
      sidebarPath: "./sidebars.json",
      versions: {"2.0": {path: "stable", label: "Stable"}, current: {path: "dev"}},
    },
  }]],
};
