MAP = """
11000
11010
00100
00011
10001
"""


def count_islands(grid):
    rows, cols = len(grid), len(grid[0])
    seen = [[False] * cols for _ in range(rows)]
    sizes = []
    for r in range(rows):
        for c in range(cols):
            if grid[r][c] == "1" and not seen[r][c]:
                stack, size = [(r, c)], 0
                seen[r][c] = True
                while stack:
                    y, x = stack.pop()
                    size += 1
                    for ny, nx in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                        if 0 <= ny < rows and 0 <= nx < cols and grid[ny][nx] == "1" and not seen[ny][nx]:
                            seen[ny][nx] = True
                            stack.append((ny, nx))
                sizes.append(size)
    return sizes


grid = MAP.strip().splitlines()
sizes = count_islands(grid)
print("islands:", len(sizes), "sizes:", sorted(sizes, reverse=True))
print("land cells:", sum(row.count("1") for row in grid))
