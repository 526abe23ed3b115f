// A component of the site's own, imported by a page: it shows its children.
export function Aside({ children, tone }) {
  return <aside className="fixture-aside">{children}</aside>
}
