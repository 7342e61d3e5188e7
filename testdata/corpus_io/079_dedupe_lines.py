with open("reports/dup.txt", "w") as f:
    f.write("b\na\nb\nc\na\n")
seen, out = set(), []
for line in open("reports/dup.txt"):
    if line not in seen:
        seen.add(line)
        out.append(line)
open("reports/dup.txt", "w").writelines(out)
print(open("reports/dup.txt").read().split())
