# Arithmetic on for-loop variables over range(), beside names that range
# loops and other assignments share: the same results as CPython.
for i in range(3):
    print(i * 7 % 4, i % 2, -i * i, (i + 1) * (i - 1) // 2)
try:
    for k in range(2):
        print(k % "a")
except TypeError as e:
    print(e)
try:
    for k in range(2):
        print(k * "ab")
except TypeError as e:
    print(e)
def f():
    total = 0
    for i in range(5):
        for j in range(5):
            total += i * j % 3
    return total
print(f(), [i * i for i in range(5)], sum(a * b for a in range(4) for b in range(4)))
x = "s"
for x in range(2):
    pass
print(x * 3)
def g():
    global q
    q = "ab"
for q in range(2):
    pass
g()
print(q * 2)
def h(range):
    for z in range(3):
        print(z * 2)
h(lambda n: ["a", "b"])
