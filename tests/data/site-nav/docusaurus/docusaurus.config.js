// A buildable Docusaurus 3 site (scripts/record_docusaurus_site.py builds it with the real Docusaurus).
const path = require('path');

module.exports = {
  title: "Acme",
  url: "https://acme.example",
  baseUrl: "/",
  onBrokenLinks: "warn", // no home page: the navbar's logo links to one
  presets: [["classic", { docs: { sidebarPath: "./sidebars.json" }, blog: false, pages: false }]],
  plugins: [
    // A second product's docs, as pnpm.io's pnpr: its own folder, sidebars (named by code) and URL.
    ["@docusaurus/plugin-content-docs", {
      id: "product", path: "./product-docs", routeBasePath: "product",
      sidebarPath: path.join(__dirname, "sidebars-product.json"),
    }],
    // No sidebar: every doc of the folder is a page, at the site's root.
    ["@docusaurus/plugin-content-docs", {id: "community", path: "community", routeBasePath: "/", sidebarPath: false}],
  ],
};
