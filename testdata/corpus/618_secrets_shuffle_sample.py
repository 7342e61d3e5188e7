import secrets

deck = [f"{r}{s}" for s in "SHDC" for r in "A23456789TJQK"]
rng = secrets.SystemRandom()
hand = rng.sample(deck, 5)
print(len(hand), len(set(hand)), all(c in deck for c in hand))
shuffled = deck[:]
rng.shuffle(shuffled)
print(sorted(shuffled) == sorted(deck), len(shuffled))
winner = secrets.choice(["ann", "ben", "cat"])
print(winner in ("ann", "ben", "cat"))
counts = [0] * 4
for _ in range(400):
    counts[secrets.randbelow(4)] += 1
print(sum(counts), all(c > 0 for c in counts))
x = rng.uniform(1.5, 2.5)
print(1.5 <= x <= 2.5, isinstance(rng.randint(1, 10), int))
