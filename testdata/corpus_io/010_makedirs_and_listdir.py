import os

os.makedirs("out/2026/01", exist_ok=True)
os.makedirs("out/2026/01", exist_ok=True)
for name in ["a.txt", "b.txt"]:
    with open(os.path.join("out/2026/01", name), "w") as f:
        f.write(name.upper())
print(sorted(os.listdir("out/2026/01")))
print(os.path.isdir("out/2026"), os.path.isfile("out/2026/01/a.txt"), os.path.exists("out/nope"))
