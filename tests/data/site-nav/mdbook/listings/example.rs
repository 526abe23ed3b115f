use std::fmt;
// ANCHOR: body
fn marker_anchor_shown() {}
// ANCHOR: inner
let marker_inner_shown = 1;
// ANCHOR_END: inner
// ANCHOR_END: body
fn marker_outside_anchor() {}
