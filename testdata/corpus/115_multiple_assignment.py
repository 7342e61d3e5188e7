a = b = c = 0
print(a, b, c)
a += 1
print(a, b, c)

x = y = []
x.append(1)
print(x, y, x is y)

total = count = 0
for n in [4, 8, 15]:
    total += n
    count += 1
print(total, count, total / count)

low = high = None
for v in [7, 2, 9, 4]:
    if low is None or v < low:
        low = v
    if high is None or v > high:
        high = v
print(low, high)
first = second = "same"
print(first is second, first == second)
i, j = 3, 4
i, j = j, i + j
print(i, j)
matrix = rows = [[1, 2], [3, 4]]
print(matrix is rows)
