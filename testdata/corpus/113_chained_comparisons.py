calls = []


def value(name, v):
    calls.append(name)
    return v


print(1 < 2 < 3, 1 < 3 < 2, 3 > 2 > 1, 1 == 1 == 1, 1 < 2 > 0)
print(0 <= 5 < 10, 0 <= 10 < 10, "a" < "b" < "c", 1 != 2 != 1)

result = value("a", 1) < value("b", 5) < value("c", 3)
print(result, calls)
calls.clear()
result = value("a", 9) < value("b", 5) < value("c", 3)
print(result, calls)


def grade(score):
    if 90 <= score <= 100:
        return "A"
    if 80 <= score < 90:
        return "B"
    if 0 <= score < 80:
        return "C"
    return "invalid"


print([grade(s) for s in [95, 90, 89.9, 80, 12, 101, -1]])
x = 5
print(1 < x < 10 and x % 2 == 1, 10 > x >= 5 > 1)
