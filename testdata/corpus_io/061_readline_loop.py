f = open("notes/ideas.txt")
n = 0
while True:
    line = f.readline()
    if not line:
        break
    n += 1
f.close()
print(n, f.closed)
