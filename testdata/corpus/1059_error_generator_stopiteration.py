# PEP 479: a StopIteration escaping a generator body becomes a RuntimeError.
def first_words(lines):
    """Yield the first word of each line, stopping at the first blank one."""
    it = iter(lines)
    while True:
        line = next(it)  # when `it` runs out this raises StopIteration inside the generator
        if not line.strip():
            return
        yield line.split()[0]


def pairs(items):
    it = iter(items)
    for first in it:
        yield first, next(it)


print(list(first_words(["alpha one", "beta two", "", "gamma"])))
print(list(pairs([1, 2, 3, 4])))
try:
    print(list(pairs([1, 2, 3])))
except RuntimeError as e:
    print("RuntimeError:", e, "| cause:", type(e.__cause__).__name__)
print("now without a blank line to stop at:")
words = []
for w in first_words(["delta four", "epsilon five"]):
    words.append(w)
    print("word", w)
print("unreachable", words)
