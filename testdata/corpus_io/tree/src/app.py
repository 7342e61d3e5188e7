"""The demo application."""
import json

from pkg import mod


def main():
    # TODO: read the port from settings
    print(mod.greet("world"))


if __name__ == "__main__":
    main()
