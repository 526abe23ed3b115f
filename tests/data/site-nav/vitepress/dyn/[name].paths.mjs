export default { paths: () => [{ params: { name: 'one' } }] }
