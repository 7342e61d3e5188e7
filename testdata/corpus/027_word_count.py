text = """It was the best of times, it was the worst of times,
it was the age of wisdom, it was the age of foolishness,
it was the epoch of belief, it was the epoch of incredulity."""

words = [w.strip(".,;!?").lower() for w in text.split()]
counts = {}
for w in words:
    counts[w] = counts.get(w, 0) + 1

print("total words:", len(words))
print("unique words:", len(counts))

top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:6]
for word, n in top:
    print(f"{word:<12}{n:>3}")

lengths = [len(w) for w in words]
print("average length: %.2f" % (sum(lengths) / len(lengths)))
print("longest:", max(counts, key=len))
print("lines:", len(text.splitlines()))
