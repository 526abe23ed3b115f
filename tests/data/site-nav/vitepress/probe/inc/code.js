// #region part
const a = 'marker-pi-snippet-region'
// #endregion part
const b = 'marker-pi-snippet-outside'
// [!code --]
const c = 'marker-pi-snippet-line4'
