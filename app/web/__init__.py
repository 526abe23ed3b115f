"""The docs-site chat widget and the demo page."""
