def greet(name):
    return f"hello {name}"


handlers = {
    "greet": greet,
    "upper": str.upper,
    "length": len,
    "constant": "not a function",
    "square": lambda x: x * x,
    "number": 42,
}

for key, handler in handlers.items():
    if callable(handler):
        arg = 7 if key == "square" else "world"
        print(f"{key}: {handler(arg)!r}")
    else:
        print(f"{key}: not callable ({type(handler).__name__})")

print(callable(print), callable(None), callable(int), callable([].append))
