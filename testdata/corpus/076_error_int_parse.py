# An agent parses a column of numbers and one cell is bad: the run stops.
def parse_column(cells):
    values = []
    for cell in cells:
        values.append(int(cell.strip()))
    return values


header = "id,qty"
rows = ["1,5", "2,7", "3,x", "4,2"]
cells = [row.split(",")[1] for row in rows]
print(f"parsing {len(cells)} cells under {header!r}")
quantities = parse_column(cells)
print("never printed", quantities)
