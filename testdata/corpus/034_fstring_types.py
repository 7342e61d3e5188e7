values = [0, 5, 10, 255, 4096, -17]
print(f"{'dec':>6} {'bin':>16} {'oct':>8} {'hex':>6} {'HEX':>6}")
for v in values:
    print(f"{v:>6d} {v:>16b} {v:>8o} {v:>6x} {v:>6X}")

print(f"{65:c}{66:c}{67:c} {233:c} {0x1F600:c}")
print(f"{255:#x} {255:#X} {255:#o} {5:#b}")
print(f"{255:#010x} {5:#010b}")
print(f"{'text':s} {'text':10s}|")
print(f"{1.5:e} {1.5:E} {1.5:f} {1.5:F} {1.5:g} {1.5:G}")
print(f"{float('inf'):f} {float('-inf'):F} {float('nan'):f} {float('nan'):F}")
print(f"{0.1 + 0.2:.17g}")
print(f"{12345678:,d} {0xDEADBEEF:_x}")
