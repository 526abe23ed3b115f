// typeorm's docs/src/constants/databases.ts (281bfba), three of its databases.
// The order of entries in this object reflects the order in which
// databases are displayed on the homepage and inside `<DatabaseTabs>`.
export const databases = {
    cockroachdb: {
        label: "CockroachDB",
        icon: "/img/databases/cockroachdb.svg",
    },
    mysql: {
        label: "MySQL",
        icon: "/img/databases/mysql.svg",
    },
    postgres: {
        label: "PostgreSQL",
        icon: "/img/databases/postgresql.svg",
    },
} as const

export type DatabaseName = keyof typeof databases
