def main(name: str = typer.Option("World")):  # marker-inc-variant-plain-py310
    pass
