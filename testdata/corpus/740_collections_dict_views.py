"""Counter, defaultdict and OrderedDict behave as the dicts they are."""
from collections import Counter, OrderedDict, defaultdict


def tally(words):
    counts = Counter()
    for w in words:
        counts[w.lower()] += 1
    return counts


counts = tally("the cat saw the dog and The bird".split())
assert counts == {"the": 3, "cat": 1, "saw": 1, "dog": 1, "and": 1, "bird": 1}
print(counts == {"the": 3}, counts != {"the": 3})
print(counts.keys())
print(counts.values())
print(list(counts.items())[:2])

# Doubling every count while walking the Counter is allowed: no key is added.
for word in counts:
    counts[word] *= 2
print(counts.most_common(2))

by_len = defaultdict(list)
for w in sorted(counts):
    by_len[len(w)].append(w)
print(by_len == {3: ["and", "cat", "dog", "saw", "the"], 4: ["bird"]})
print(by_len.keys(), len(by_len.values()))
for n, ws in by_len.items():
    by_len[n] = ",".join(ws)
print(dict(by_len))

try:
    by_len.pop(9)
except KeyError as e:
    print("missing length:", e)
print(by_len.pop(9, "none"))

config = OrderedDict([("host", "localhost"), ("port", 8080)])
print(config == {"port": 8080, "host": "localhost"})
print(config == OrderedDict([("port", 8080), ("host", "localhost")]))
print(config.keys(), config.items())
try:
    config["user"]
except KeyError as e:
    print("no such setting:", e)
config.move_to_end("host")
print(list(config))
print([Counter("aab"), defaultdict(int, x=1)] == [{"a": 2, "b": 1}, {"x": 1}])
