import type { MetaRecord } from 'nextra'

const meta: MetaRecord = {
  index: 'Overview',
  'getting-started': '',
  '---': { type: 'separator', title: 'In depth' },
  advanced: '',
  flat: { display: 'children' },
  secret: { display: 'hidden' },
  api: 'API Reference',
  changelog: { title: 'Changelog', href: 'https://example.com/changelog' },
}

export default meta
