VOWELS = "aeiouAEIOU"


def count_vowels(s):
    """Count vowels in s (MBPP style)."""
    return sum(1 for ch in s if ch in VOWELS)


def vowel_positions(s):
    return [i for i, ch in enumerate(s) if ch.lower() in "aeiou"]


assert count_vowels("hello") == 2
assert count_vowels("rhythm") == 0
assert count_vowels("AEIOU") == 5

for word in ["programming", "Onomatopoeia", "sky", "Queueing"]:
    print(word, count_vowels(word), vowel_positions(word))

sentence = "The quick brown fox jumps over the lazy dog"
per_word = {w: count_vowels(w) for w in sentence.split()}
print(per_word)
print("total:", sum(per_word.values()))
