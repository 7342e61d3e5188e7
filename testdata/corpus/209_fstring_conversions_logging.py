def log_call(name, *args, **kwargs):
    parts = [f"{a!r}" for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
    print(f"call {name}({', '.join(parts)})")


log_call("search", "café crème", limit=5, exact=False)
log_call("lookup", ["a", "b"], None, key=("x", 1))

user_input = "naïve 🚀 input\twith tab"
print(f"received {user_input!a}")
print(f"received {user_input!r}")
print(f"{'ascii only'!a} {'é'!a} {'日本'!a}")
value = 3.0
items = {"k": [1, 2]}
print(f"{value=} {items=}")
print(f"{value * 2 = :.1f}")
print(f"{items['k']=!s}")
