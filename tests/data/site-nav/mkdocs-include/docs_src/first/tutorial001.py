def main(name: str = typer.Option("World")):  # marker-inc-variant-plain
    pass
