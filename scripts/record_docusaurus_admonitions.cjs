// Usage: cd <a folder where @docusaurus/core@3 is installed> && node <docschat>/scripts/record_docusaurus_admonitions.cjs <docschat>/tests/data/docusaurus-admonition-titles.json
// Records @docusaurus/utils' admonitionTitleToDirectiveLabel on the cases of
// tests/data/docusaurus-admonition-titles.json (docschat's tests/test_page_reader_docusaurus_admonitions.py).
const {admonitionTitleToDirectiveLabel} = require('@docusaurus/utils')
const {normalizeAdmonitionOptions} = require('@docusaurus/mdx-loader/lib/remark/admonitions')
const fs = require('fs')
const path = process.argv[2]
const data = JSON.parse(fs.readFileSync(path, 'utf8'))
const {keywords} = normalizeAdmonitionOptions(true)
data.keywords = keywords
data.cases = data.cases.map(({page}) => ({page, docusaurus: admonitionTitleToDirectiveLabel(page, keywords)}))
fs.writeFileSync(path, JSON.stringify(data, null, 1) + '\n')
