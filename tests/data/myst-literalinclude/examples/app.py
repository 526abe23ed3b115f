"""An example application."""

import sys

# start of setup
DEFAULT_NAME = "world"
RETRIES = 3
# end of setup


def main(argv):
    name = argv[1] if len(argv) > 1 else DEFAULT_NAME
    print(Greeter().greet(name))
    # a comment inside main

    # a trailing comment of main


class Greeter:
    """Says hello."""

    prefix = "Hello"

    @staticmethod
    def shout(text):
        return text.upper()

    def greet(self, name):
        message = f"{self.prefix}, {name}!"
        return message

    def one(self): return 1


if __name__ == "__main__":
    main(sys.argv)
