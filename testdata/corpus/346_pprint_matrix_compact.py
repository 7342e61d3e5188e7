# Print matrices and long lists compactly.
import pprint

matrix = [[(r * 7 + c * 3) % 10 for c in range(12)] for r in range(6)]
pprint.pprint(matrix)
pprint.pprint(matrix, width=30)
pprint.pprint(matrix, width=30, compact=True)
squares = [n * n for n in range(40)]
pprint.pprint(squares, compact=True, width=60)
print(pprint.pformat(tuple(squares[:15]), width=25, indent=2))
