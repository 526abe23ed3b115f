# A Sphinx site whose exclude_patterns code extends (recorded by scripts/record_myst_site.py).
import os

project = "conf-code"
extensions = ["myst_parser"]
exclude_patterns = ["_build"]
exclude_patterns.append("internal/plan.md")
exclude_patterns.extend(["drafts/*"])
if not os.environ.get("PUBLISH_SECRETS"):
    exclude_patterns += ["secret.md"]
