values = ["plain", "with 'single'", 'with "double"', "new\nline", "tab\t", "é", "日本", "🙂", 42, 1.5, None, [1, "a"], ("x",), {"k": "v"}]

for v in values:
    print(f"str={str(v)!s:<20} repr={repr(v)}")

print(repr(""), repr(" "), repr("\\"), repr("\x00"), repr("\x7f"))
print(str(1e22), repr(1e22), str(1e-4), repr(0.0001), repr(1e-5))
print(repr(1.0), repr(100.0), repr(123.456), repr(-2.5e-8))


def describe(value) -> str:
    """Show a value the way a debugging helper would."""
    return f"{type(value).__name__}({value!r})"


for v in [0, "0", 0.0, [0], (0,), {"0": 0}, True]:
    print(describe(v))
