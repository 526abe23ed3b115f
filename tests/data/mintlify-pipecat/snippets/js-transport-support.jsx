export const methods = () => {
  return [
    { name: "startBot", dt: "1.2.0", ws: "1.2.0" },
    { name: "connect", dt: "1.0.0", ws: "1.0.0", gem: "1.0.0" },
  ];
};

export const TransportTable = (rows) => {
  const headers = ["Method", "Daily", "WebSocket", "Gemini"];
  if (!rows || !rows.rows || !Array.isArray(rows.rows)) {
    return <div>Error: Invalid rows data</div>;
  }
  return (
    <table className="compatibility-table">
      <tr>
        {headers.map((header) => (
          <th key={header}>{header}</th>
        ))}
      </tr>
      {rows.rows.map((entry) => (
        <tr key={entry.name}>
          <td>{entry.name}()</td>
          <td>{entry.dt || "❌"}</td>
          <td>{entry.ws || "❌"}</td>
          <td>{entry.gem || "❌"}</td>
        </tr>
      ))}
    </table>
  );
};
