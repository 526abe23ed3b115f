import nextra from 'nextra'

const withNextra = nextra({})

// Next.js's i18n: Nextra 4 reads it (and unsets it for Next.js): a page map a locale, `content/<locale>/`.
export default withNextra({ output: 'export', images: { unoptimized: true }, i18n: { locales: ['en', 'de'], defaultLocale: 'en' } })
