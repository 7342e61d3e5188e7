with open("notes/ideas.txt") as f:
    lines = [line.rstrip("\n") for line in f]
longest = max(lines, key=len)
print(len(lines), "lines; longest:", repr(longest), len(longest))
