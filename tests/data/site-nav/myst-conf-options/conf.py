project = "conf-options"
extensions = ["myst_parser", "sphinx_design", "sphinx.ext.todo"]
# No colon_fence: a `:::` line is text on every page but one that lists it in its front matter.
myst_enable_extensions = ["attrs_block"]
todo_include_todos = True
html_theme = "basic"
