"""Building a large text report with += in loops, then summarising it."""

rows = [(f"item-{i:05d}", (i * 37) % 1000 / 10, i % 3 == 0) for i in range(20000)]

report = ""
for name, price, flagged in rows:
    report += f"{name},{price:.1f},{'yes' if flagged else 'no'}\n"

print(len(report), report.count("\n"), report[:36].splitlines())

summary = "# Summary\n"
total = 0.0
for name, price, flagged in rows:
    if flagged:
        total += price
        summary = summary + name[-3:] + " "
print(len(summary), summary[:30])
print(f"flagged total: {total:,.1f}")

csv_copy = report
report += "END\n"
print(report.endswith("END\n"), csv_copy.endswith("END\n"), len(report) - len(csv_copy))

letters = ""
for ch in "abcdefghijklmnopqrstuvwxyz" * 2000:
    if ch in "aeiou":
        letters += ch.upper()
    else:
        letters += ch
print(len(letters), letters[:30], letters.count("E"))
