import { Footer, Layout, Navbar } from 'nextra-theme-docs'
import { Head } from 'nextra/components'
import { getPageMap } from 'nextra/page-map'
import 'nextra-theme-docs/style.css'

export const metadata = { title: { template: '%s – Fixture', default: 'Fixture' } }

export default async function RootLayout({ children, params }) {
  const { lang } = await params
  return (
    <html lang={lang} dir="ltr" suppressHydrationWarning>
      <Head />
      <body>
        <Layout navbar={<Navbar logo={<b>Fixture</b>} />} pageMap={await getPageMap(`/${lang}`)} footer={<Footer>MIT</Footer>}
          i18n={[{ locale: 'en', name: 'English' }, { locale: 'de', name: 'Deutsch' }]}>
          {children}
        </Layout>
      </body>
    </html>
  )
}
