export default {
  '*': { display: 'hidden' },
  writing: 'Writing pages',
}
