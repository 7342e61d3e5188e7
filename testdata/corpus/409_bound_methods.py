"""Methods passed as values: key functions and callbacks from bound methods."""

readings = [3, 7, 3, 9, 7, 3, 1]
most_common = max(set(readings), key=readings.count)
print("most common:", most_common, "seen", readings.count(most_common), "times")

order = "low medium high critical"
levels = ["high", "low", "critical", "medium", "low"]
print(sorted(levels, key=order.split().index))

prices = {"apple": 1.2, "kiwi": 0.5, "mango": 2.0}
cheapest_first = sorted(prices, key=prices.get)
print(cheapest_first, min(prices, key=prices.get))

pairs = prices.items
print(list(pairs())[:1])

joiner = " | ".join
print(joiner(["a", "b", "c"]))

words = ["Banana", "apple", "Cherry"]
normalise = str.lower
print(sorted(words, key=normalise), list(map(str.upper, words)))

stack = []
push = stack.append
for n in range(3):
    push(n * n)
pop = stack.pop
print(pop(), stack)

counts = {}
bump = counts.setdefault
for w in "the cat the hat".split():
    bump(w, 0)
    counts[w] += 1
print(counts)
