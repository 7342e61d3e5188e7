# Decorators are evaluated top to bottom and applied bottom to top.
def deco(name):
    print("evaluate", name)

    def apply(fn):
        print("apply", name, "to", fn.__name__)

        def wrapper(*a):
            return f"{name}({fn(*a)})"

        wrapper.__name__ = f"{name}_{fn.__name__}"
        return wrapper
    return apply


@deco("outer")
@deco("middle")
@deco("inner")
def f(x):
    return x


print(f("x"), f.__name__)
