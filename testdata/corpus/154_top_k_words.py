from typing import List, Tuple

TEXT = """Python is great. Python is readable; python is popular!
Go is fast. Rust is safe. Is Python fast? Not always."""
STOPWORDS = {"is", "not", "a", "the"}


def tokenize(text: str) -> List[str]:
    cleaned = "".join(ch.lower() if ch.isalpha() else " " for ch in text)
    return cleaned.split()


def top_k(words: List[str], k: int) -> List[Tuple[str, int]]:
    counts = {}
    for w in words:
        if w not in STOPWORDS:
            counts[w] = counts.get(w, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:k]


words = tokenize(TEXT)
print(len(words), words[:6])
for rank, (word, n) in enumerate(top_k(words, 4), start=1):
    print(f"{rank}. {word:<8} {n}")
print(top_k([], 3))
