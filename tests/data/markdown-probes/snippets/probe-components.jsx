export const Hidden = ({children}) => null

export const Preview = ({children}) => process.env.DOCS_PREVIEW === 'yes' ? children : null

export function Gate({children, role}) {
  if (role !== 'admin') return null
  return <div>{children}</div>
}

export const Shown = ({children, title}) => <div><b>{title}</b>{children}</div>
