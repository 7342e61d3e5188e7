import copy
import itertools

board = [
    [0, 1, 0, 0],
    [0, 1, 0, 0],
    [0, 1, 0, 0],
    [0, 0, 0, 0],
]
H, W = len(board), len(board[0])


def neighbours(b, r, c):
    total = 0
    for dr, dc in itertools.product((-1, 0, 1), repeat=2):
        if (dr, dc) != (0, 0) and 0 <= r + dr < H and 0 <= c + dc < W:
            total += b[r + dr][c + dc]
    return total


def step(b):
    nb = copy.deepcopy(b)
    for r, c in itertools.product(range(H), range(W)):
        n = neighbours(b, r, c)
        nb[r][c] = 1 if n == 3 or (b[r][c] and n == 2) else 0
    return nb


history = [copy.deepcopy(board)]
for _ in range(4):
    board = step(board)
    history.append(board)

for i, snap in enumerate(history[:3]):
    print(f"gen {i}:", ["".join(".#"[x] for x in row) for row in snap])
print("period 2:", history[0] == history[2] == history[4], history[1] == history[3])
print("live cells:", [sum(itertools.chain.from_iterable(s)) for s in history])
print("distinct states:", len({tuple(itertools.chain(*s)) for s in history}))
