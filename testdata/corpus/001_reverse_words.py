def reverse_words(sentence: str) -> str:
    """Reverse the order of words in a sentence, keeping single spaces."""
    words = sentence.split()
    return " ".join(reversed(words))


def reverse_each_word(sentence: str) -> str:
    """Reverse the letters of every word but keep the word order."""
    return " ".join(word[::-1] for word in sentence.split())


assert reverse_words("hello world") == "world hello"
assert reverse_words("  a   b  c ") == "c b a"
assert reverse_each_word("abc def") == "cba fed"

samples = ["the quick brown fox", "one", "", "Python is fun"]
for s in samples:
    print(repr(reverse_words(s)), repr(reverse_each_word(s)))
print("all tests passed")
