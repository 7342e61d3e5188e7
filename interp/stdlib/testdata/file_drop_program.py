f = open('big.txt', 'rb')
n = 0
for l in f:
    n += 1
    if n == 300000:
        pos = f.tell()
        mark = f.readline()
print(n, pos, mark)
f.seek(pos)
print(f.readline())
f.seek(16)
print(f.read(8), f.tell())
print(f.seek(-8, 2), f.read())
print(f.seek(100, 1), f.read(), f.tell())
print(f.seek(4000000), f.read(8))
g = open('big.txt')
for i in range(300000):
    g.readline()
c = g.tell()
a = g.readline()
g.seek(c)
print(a == g.readline(), repr(a))
g.seek(0)
print(repr(g.readline()))
g.seek(c)
print(repr(g.readline()))
n = 0
for _ in g:
    n += 1
print(n)
