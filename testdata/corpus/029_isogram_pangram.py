ALPHABET = "abcdefghijklmnopqrstuvwxyz"


def is_isogram(word: str) -> bool:
    letters = [c.lower() for c in word if c.isalpha()]
    return len(letters) == len(set(letters))


def is_pangram(sentence: str) -> bool:
    return set(ALPHABET) <= set(sentence.lower())


def missing_letters(sentence: str) -> str:
    present = set(sentence.lower())
    return "".join(c for c in ALPHABET if c not in present)


for w in ["lumberjacks", "background", "isograms", "six-year-old", "Alphabet"]:
    print(w, is_isogram(w))

for s in ["The quick brown fox jumps over the lazy dog", "Hello world"]:
    print(is_pangram(s), repr(missing_letters(s)))
