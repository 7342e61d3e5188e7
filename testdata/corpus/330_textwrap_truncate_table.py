# Truncate long descriptions in a table with shorten and max_lines.
import textwrap

tickets = [
    (101, "Login page shows a blank screen after the session expires on mobile Safari"),
    (102, "Typo"),
    (103, "Export to CSV drops rows   whose   description contains\na newline character"),
    (104, "Dark mode: the contrast of disabled buttons is too low to read comfortably"),
]

for tid, desc in tickets:
    print(f"#{tid} {textwrap.shorten(desc, width=40, placeholder='...'):<40}|")

print()
long_desc = tickets[0][1] + ". " + tickets[3][1] + "."
for n in (1, 2, 3):
    print(f"max_lines={n}:")
    for line in textwrap.wrap(long_desc, width=30, max_lines=n):
        print("   ", line)
print(textwrap.fill(long_desc, width=30, max_lines=2, placeholder=" [see ticket]"))
