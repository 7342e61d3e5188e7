print(2 ** 10, 2 ** 0, 2 ** -1, 10 ** -2)
print(-2 ** 2, (-2) ** 2, -2 ** -2)
print(2 ** 3 ** 2, (2 ** 3) ** 2)
print(2 ** 0.5, 4 ** 0.5, 27 ** (1 / 3))
print(1.5 ** 2, 0 ** 0, (-1) ** 3)
print(2 ** 64, 3 ** 40, len(str(7 ** 100)))

x = 3
x **= 3
print(x)


def compound(principal: float, rate: float, years: int) -> float:
    return principal * (1 + rate) ** years


for years in (1, 5, 10, 30):
    print(years, f"{compound(1000, 0.05, years):,.2f}")
print([n ** 2 for n in range(6)], sum(i ** 3 for i in range(1, 4)))
