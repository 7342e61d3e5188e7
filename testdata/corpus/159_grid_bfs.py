from typing import List, Optional, Tuple

GRID = [
    "S.#.....",
    ".##.###.",
    "....#...",
    "##.##.#.",
    "......#E",
]


def find(ch: str) -> Tuple[int, int]:
    for r, row in enumerate(GRID):
        c = row.find(ch)
        if c != -1:
            return r, c
    raise ValueError(f"{ch!r} not in grid")


def shortest_path(start, end) -> Optional[int]:
    rows, cols = len(GRID), len(GRID[0])
    frontier = [start]
    dist = {start: 0}
    while frontier:
        nxt = []
        for r, c in frontier:
            if (r, c) == end:
                return dist[(r, c)]
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                nr, nc = r + dr, c + dc
                if 0 <= nr < rows and 0 <= nc < cols and GRID[nr][nc] != "#" and (nr, nc) not in dist:
                    dist[(nr, nc)] = dist[(r, c)] + 1
                    nxt.append((nr, nc))
        frontier = nxt
    return None


s, e = find("S"), find("E")
print("start", s, "end", e)
print("steps:", shortest_path(s, e))
print("to (0, 3):", shortest_path(s, (0, 3)))
