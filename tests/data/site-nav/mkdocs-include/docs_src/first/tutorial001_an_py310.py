from typing import Annotated  # marker-inc-preferred-line1
import typer
def main(name: Annotated[str, typer.Option()] = "World"):  # marker-inc-preferred-line3
    print(f"Hello {name}")  # marker-inc-preferred-line4
typer.run(main)  # marker-inc-preferred-line5
