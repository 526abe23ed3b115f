export default {
  index: 'Start',
  docs: 'Dokumentation',
}
