x = 10
y = 3
name = "Ada"
values = [4, 8, 15]

print(f"{x=}")
print(f"{x = }")
print(f"{x + y=}")
print(f"{x / y=:.3f}")
print(f"{name=}")
print(f"{name=!s}")
print(f"{values[1]=}")
print(f"{len(values)=}, {sum(values) = }")
print(f"{x > y=} {x % y=}")


def area(w: float, h: float) -> float:
    return w * h


print(f"{area(2.5, 4)=}")
