module.exports = {
  docs: ['intro', {type: 'category', label: 'Guides', items: ['guides/setup']}],
};
