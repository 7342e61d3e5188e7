population = 8_045_311_447
ratio = 0.4567
big = 1234567.891

print(f"{population:,}")
print(f"{population:_}")
print(f"{big:,.2f}")
print(f"{big:_.1f}")
print(f"{ratio:.1%}")
print(f"{ratio:%}")
print(f"{0.5:.0%}")
print(f"{3.14159265:.3f}")
print(f"{2.5:.0f} {3.5:.0f} {-0.5:.0f}")
print(f"{1/3:.10f}")
print(f"{100:08.3f}")
print(f"{12:5d}|{12:<5d}|{12:^5d}|")
print(f"{1e-7:.2e}", f"{123456789:.3e}", f"{0.000123:E}")
print(f"{1234.5:g}", f"{0.00001234:g}", f"{1e20:g}", f"{123456789.0:G}")
print(f"{42:n}", f"{3.0:n}")
