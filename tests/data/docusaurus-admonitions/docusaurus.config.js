// A buildable Docusaurus 3 site (scripts/record_docusaurus_admonitions_site.py builds it with the
// real Docusaurus): one docs instance per `admonitions` option of the docs plugin.
module.exports = {
  title: "Admonitions",
  url: "https://admonitions.example",
  baseUrl: "/",
  onBrokenLinks: "warn",
  presets: [["classic", {
    // Custom keywords beside the default ones (extendDefaults is true by default).
    docs: {sidebarPath: false, admonitions: {keywords: ["release", "secret-sauce"]}},
    blog: false, pages: false, theme: {customCss: "./src/css/custom.css"},
  }]],
  plugins: [
    // Custom keywords instead of the default ones.
    ["@docusaurus/plugin-content-docs", {id: "only", path: "only", routeBasePath: "only", sidebarPath: false,
      admonitions: {keywords: ["release"], extendDefaults: false}}],
    // No admonitions at all.
    ["@docusaurus/plugin-content-docs", {id: "off", path: "off", routeBasePath: "off", sidebarPath: false,
      admonitions: false}],
    // Docusaurus's components and a site class that hides (scripts/record_docusaurus_admonitions_site.py's markers).
    ["@docusaurus/plugin-content-docs", {id: "classes", path: "classes", routeBasePath: "classes", sidebarPath: false}],
  ],
};
