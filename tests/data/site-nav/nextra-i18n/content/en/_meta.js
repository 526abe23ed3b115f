export default {
  index: 'Home',
  docs: 'Documentation',
}
