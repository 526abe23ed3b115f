module.exports = { title: "Acme", presets: [["classic", { docs: { sidebarPath: "./sidebars.json" } }]] };
