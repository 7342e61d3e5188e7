orders = [7, 42, 1234, 99999, 3]
print([str(n).zfill(6) for n in orders])
print([f"ORD-{str(n).zfill(5)}" for n in filter(lambda n: n > 10, orders)])

modes = {"script.sh": 0o755, "notes.txt": 0o644, "secret.key": 0o600, "shared": 0o777}


def symbolic(mode: int) -> str:
    out = ""
    for shift in (6, 3, 0):
        bits = (mode >> shift) & 0o7
        out += ("r" if bits & 4 else "-") + ("w" if bits & 2 else "-") + ("x" if bits & 1 else "-")
    return out


for name, mode in modes.items():
    print(f"{name:<11} {oct(mode):>6} {oct(mode)[2:].zfill(4)} {symbolic(mode)}")

executable = list(filter(lambda kv: kv[1] & 0o100, modes.items()))
print([name for name, _ in executable])
print(int("755", 8) == 0o755, oct(8), oct(-8), "-12".zfill(5))
