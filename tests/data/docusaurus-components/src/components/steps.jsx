import React from "react"

// A marker: Steps reads its props, it renders nothing itself.
export const Step = () => null

// Each child's title and children, numbered: the children taken apart in the return itself.
export default function Steps({children}) {
  return (
    <ol className="steps">
      {React.Children.map(children, (child) => (
        <li>
          <strong>{child.props.title}</strong>
          {child.props.children}
        </li>
      ))}
    </ol>
  )
}

// Counts its children and shows none of them.
export function Count({children}) {
  return <p>{React.Children.count(children)} steps in all.</p>
}
