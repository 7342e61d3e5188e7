changes = [12.5, -3.25, 0.0, 7, -100]

for c in changes:
    print(f"[{c:+.2f}] [{c:-.2f}] [{c: .2f}] [{c:+08.2f}] [{c:08.1f}]")

print(f"{42:+d} {-42:+d} {42: d} {-42: d}")
print(f"{7:03d} {-7:03d} {7:+04d}")
print(f"{3.14159:010.4f}")
print(f"{-1234567:,}")
print(f"{-1234567:+,}")
print(f"{1234:=+10}")
print(f"{-0.0:.1f} {-0.001:.2f}")

deltas = {"revenue": 0.052, "costs": -0.013, "margin": 0.0}
for k, v in deltas.items():
    arrow = "up" if v > 0 else "down" if v < 0 else "flat"
    print(f"{k:<8} {v:+.1%} {arrow}")
