import typer  # marker-inc-second-line1
app = typer.Typer(no_args_is_help=True)  # marker-inc-second-line2
