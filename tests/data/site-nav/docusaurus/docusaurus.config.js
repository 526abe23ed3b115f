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
  // Code block comments the build leaves out (docs/intro.md): the default one, and the site's own.
  themeConfig: {
    prism: {
      magicComments: [
        {className: "theme-code-block-highlighted-line", line: "highlight-next-line",
         block: {start: "highlight-start", end: "highlight-end"}},
        {className: "code-block-error-line", line: "marker-docu-magic-line-hidden",
         block: {start: "marker-docu-magic-start-hidden", end: "marker-docu-magic-end-hidden"}},
        {className: "code-block-kept-line", line: "marker-docu-magic-kept-shown"},
      ],
    },
  },
};
