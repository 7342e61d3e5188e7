# Split a dataset into train/test sets reproducibly, then sample a batch.
import random

records = [{"id": i, "label": "spam" if i % 3 == 0 else "ham"} for i in range(1, 31)]

rng = random.Random(42)
shuffled = records[:]
rng.shuffle(shuffled)
cut = int(len(shuffled) * 0.8)
train, test = shuffled[:cut], shuffled[cut:]
print("train ids:", sorted(r["id"] for r in train))
print("test ids:", [r["id"] for r in test])

batch = rng.sample(train, 5)
print("batch:", [(r["id"], r["label"]) for r in batch])

spam_share = sum(r["label"] == "spam" for r in test) / len(test)
print(f"spam share in test: {spam_share:.2f}")

# The same seed gives the same split.
again = records[:]
random.Random(42).shuffle(again)
print("reproducible:", again[:cut] == train)
