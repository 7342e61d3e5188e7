operations = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b if b else None,
    "pow": lambda a, b=2: a ** b,
}

for name, op in operations.items():
    print(name, op(12, 4))
print(operations["pow"](5))

compose = lambda f, g: lambda x: f(g(x))
inc = lambda x: x + 1
double = lambda x: x * 2
print(compose(inc, double)(5), compose(double, inc)(5))

people = [("Zed", 30), ("amy", 25), ("Bob", 30)]
print(sorted(people, key=lambda p: (-p[1], p[0].lower())))
adders = [lambda x, n=n: x + n for n in range(3)]
print([f(10) for f in adders])
print((lambda *args: len(args))(1, 2, 3), (lambda **kw: sorted(kw))(b=1, a=2))
