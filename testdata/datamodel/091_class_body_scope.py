# Names of a class body are not visible inside its methods or in comprehensions
# of the body (except the first iterable); they are class attributes.
x = "global"


class C:
    x = "class"
    values = [1, 2, 3]
    doubled = [v * 2 for v in values]
    try:
        pairs = [(v, x) for v in values]
    except NameError as e:
        pairs = str(e)

    def method(self):
        return x


print(C().method(), C.x, C.doubled, C.pairs)


class D:
    y = 1
    try:
        z = [y for _ in range(2)]
    except NameError as e:
        z = f"NameError: {e}"


print(D.z)
