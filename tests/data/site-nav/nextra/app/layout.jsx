import { Footer, Layout, Navbar } from 'nextra-theme-docs'
import { Head } from 'nextra/components'
import { getPageMap } from 'nextra/page-map'
import 'nextra-theme-docs/style.css'

export const metadata = { title: { template: '%s – Fixture', default: 'Fixture' } }

export default async function RootLayout({ children }) {
  return (
    <html lang="en" dir="ltr" suppressHydrationWarning>
      <Head />
      <body>
        <Layout navbar={<Navbar logo={<b>Fixture</b>} />} pageMap={await getPageMap()} footer={<Footer>MIT</Footer>}>
          {children}
        </Layout>
      </body>
    </html>
  )
}
