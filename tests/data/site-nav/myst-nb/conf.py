# A MyST-NB site (Sphinx, notebooks written as MyST Markdown): cells tagged remove-cell or
# remove-input are not shown. Built by scripts/record_myst_site.py, which records what it shows.
project = "Acme notebooks"
extensions = ["myst_nb"]
nb_execution_mode = "off"  # the recorded page shows the cells' sources; nothing is run
html_theme = "alabaster"
