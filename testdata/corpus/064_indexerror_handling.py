def safe_get(seq, index, default=None):
    try:
        return seq[index]
    except IndexError:
        return default


data = [10, 20, 30]
print(safe_get(data, 0), safe_get(data, 2), safe_get(data, 3), safe_get(data, -1), safe_get(data, -4, "none"))
print(safe_get("héllo", 1), safe_get("héllo", 9, "?"), safe_get((1, 2), 5, 0))

stack = [1, 2]
while True:
    try:
        print("popped", stack.pop())
    except IndexError as e:
        print("stack empty:", e)
        break

for seq in [[], "", ()]:
    try:
        seq[0]
    except IndexError as e:
        print(type(seq).__name__, "->", e)
