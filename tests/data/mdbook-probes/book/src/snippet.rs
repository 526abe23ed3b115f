fn a() {}
// ANCHOR: here
let marker_anchor_shown = 1;
// ANCHOR_END: here
