export const Plain = () => <p>A component's own text</p>

export const Titled = ({title}) => <div><b>{title}</b></div>

export const Rows = ({rows}) => (
  <table><tbody>{rows.map((row) => <tr key={row.name}><td>{row.name}</td></tr>)}</tbody></table>
)

export const Quiet = ({children}) => null

export const Hiding = ({note}) => <div hidden>{note}</div>

export const Wrapped = ({children, label}) => <section><h4>{label}</h4>{children}</section>
