from typing_extensions import Annotated  # marker-inc-variant-an
