class ParseError(ValueError):
    pass


class EmptyInputError(Exception):
    """Raised when there is nothing to parse."""


def parse_pair(text: str):
    if not text.strip():
        raise EmptyInputError("input is empty")
    if "=" not in text:
        raise ParseError(f"missing '=' in {text!r}")
    key, value = text.split("=", 1)
    return key.strip(), value.strip()


for line in ["a = 1", "b=two", "broken", "   ", "c=d=e"]:
    try:
        print(parse_pair(line))
    except ParseError as e:
        print("ParseError:", e)
    except EmptyInputError as e:
        print("EmptyInputError:", e)

try:
    parse_pair("oops")
except ValueError as e:
    print("caught as ValueError:", type(e).__name__, isinstance(e, ParseError))
