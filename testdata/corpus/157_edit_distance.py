def levenshtein(a: str, b: str) -> int:
    """Minimum number of single-character edits to turn a into b."""
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        cur = [i]
        for j, cb in enumerate(b, start=1):
            cost = 0 if ca == cb else 1
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost))
        prev = cur
    return prev[-1]


def closest(word: str, vocabulary):
    return min(vocabulary, key=lambda v: (levenshtein(word, v), v))


pairs = [("kitten", "sitting"), ("flaw", "lawn"), ("", "abc"), ("same", "same"), ("café", "cafe"), ("日本語", "日本")]
for a, b in pairs:
    print(f"{a!r} -> {b!r}: {levenshtein(a, b)}")

commands = ["status", "commit", "checkout", "branch", "merge", "rebase"]
for typo in ["stauts", "comit", "chekout", "brnch", "rebsae"]:
    print(f"did you mean {closest(typo, commands)!r} for {typo!r}?")
