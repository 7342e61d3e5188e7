import sys

rows = [("widget", 4, 2.5), ("gadget", 10, 1.25), ("doohickey", 1, 99.0)]
out = sys.stdout
out.write("REPORT\n")
out.write("=" * 30 + "\n")
total = 0.0
for name, qty, price in rows:
    line = f"{name:<12}{qty:>4}{qty * price:>12.2f}\n"
    n = out.write(line)
    total += qty * price
print("-" * 30, file=sys.stdout)
sys.stdout.write(f"{'total':<16}{total:>12.2f}\n")
sys.stdout.writelines([f"{r[0]}\n" for r in rows])
sys.stdout.flush()
print(n, len(line), sys.stdout.write(""))
print("sep test", 1, 2, sep="|", end="!\n", file=sys.stdout)
print(sys.stdin.read() == "", sys.stdout.isatty())
