with open("reports/out.txt", "w") as f:
    print("header", file=f)
    print(1, 2, 3, sep=",", file=f)
    f.writelines(["x\n", "y\n"])
print(open("reports/out.txt").read().splitlines())
