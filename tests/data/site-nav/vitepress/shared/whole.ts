export const whole = 'marker-vp-snippet-whole-shown'
