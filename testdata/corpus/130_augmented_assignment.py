x = 10
x += 5
x -= 3
x *= 2
x //= 5
x **= 3
x %= 7
print(x)

f = 1.0
f /= 4
f += 0.25
print(f)

s = "ab"
s += "cd"
s *= 2
print(s)

bits = 0b1100
bits |= 0b0011
bits &= 0b1010
bits ^= 0b0001
bits <<= 2
bits >>= 1
print(bits, bin(bits))

items = [1]
alias = items
items += [2, 3]
print(items, alias, items is alias)
t = (1,)
t += (2,)
print(t)
counts = {"a": 1}
counts["a"] += 10
counts["b"] = counts.get("b", 0) + 1
print(counts)
