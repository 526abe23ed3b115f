export const outside = 'marker-vp-snippet-outside-hidden'

// #region main
  export function main() {
    return 'marker-vp-snippet-region-shown'
  }
  // #region inner
  export const inner = 'marker-vp-snippet-inner-shown'
  // #endregion inner
// #endregion main
