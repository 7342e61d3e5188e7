import string
from collections import Counter

TEXT = """The quick brown fox jumps over the lazy dog. The dog sleeps;
the fox runs! Quick, quick -- said the bird. A dog's life, the bird's song."""

table = str.maketrans("", "", string.punctuation.replace("'", ""))
words = [w.strip("'") for w in TEXT.lower().translate(table).split()]
counts = Counter(words)

print("distinct words:", len(counts), "total:", counts.total())
for word, n in counts.most_common(4):
    print(f"{word:>6} {n:2d} {'#' * n}")

stop = Counter({"the": 100, "a": 100})
content = counts - stop
print("top content words:", content.most_common(3))

letters = Counter(c for c in TEXT.lower() if c in string.ascii_lowercase)
print("most common letters:", letters.most_common(5))
print("unused letters:", "".join(c for c in string.ascii_lowercase if letters[c] == 0))

first_half = Counter(words[: len(words) // 2])
second_half = Counter(words[len(words) // 2 :])
print("only early:", sorted((first_half - second_half).elements()))
print("shared:", sorted((first_half & second_half).keys()))
print("combined fox+dog:", (first_half + second_half)["fox"] + (first_half | second_half)["dog"])
