with open("notes/ideas.txt") as f:
    first = f.readline()
    pos = f.tell()
    second = f.readline()
    f.seek(pos)
    again = f.readline()
print(repr(first), second == again)
