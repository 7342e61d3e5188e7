# Data wrangling of the kind agents send (issue 20, item 4): build rows,
# filter, group, aggregate, sort and count, then a word count. CPython and
# onetool run this file unchanged and print the same text. N and WORDS
# set the size; the benchmark runner rewrites these two lines.
from collections import Counter, defaultdict

N = 200_000
WORDS = 80_000

CITIES = ["Amsterdam", "Berlin", "Cairo", "Delhi", "Lima", "Oslo", "Paris",
          "Quito", "Rome", "Tokyo", "Vienna"]
PRODUCTS = ["apple", "bread", "cheese", "dates", "eggs", "flour", "grapes",
            "honey", "ink", "jam", "kale", "lemon", "milk"]

rows = []
for i in range(N):
    rows.append({
        "id": i,
        "city": CITIES[i % len(CITIES)],
        "product": PRODUCTS[(i * 7) % len(PRODUCTS)],
        "qty": (i * 31) % 17 + 1,
        "price": ((i * 37) % 1000) / 10,
        "ok": i % 5 != 0,
    })

# Filter, then group by city.
kept = [r for r in rows if r["ok"] and r["qty"] > 2]
by_city = defaultdict(list)
for r in kept:
    by_city[r["city"]].append(r)

print(f"rows: {len(rows)}, kept: {len(kept)}")
summary = []
for city, rs in by_city.items():
    qty = sum(r["qty"] for r in rs)
    revenue = sum(r["qty"] * r["price"] for r in rs)
    summary.append({"city": city, "n": len(rs), "qty": qty, "revenue": revenue})
summary.sort(key=lambda s: (-s["revenue"], s["city"]))
for s in summary:
    print(f"{s['city']:<10} {s['n']:>6} {s['qty']:>8} {s['revenue']:>14.2f}")

# Count per (city, product), the five largest.
pairs = Counter((r["city"], r["product"]) for r in kept)
for (city, product), n in pairs.most_common(5):
    print(city, product, n)

# Totals per product with dict.get, sorted by value.
totals = {}
for r in kept:
    totals[r["product"]] = totals.get(r["product"], 0) + r["qty"]
print(sorted(totals.items(), key=lambda kv: kv[1], reverse=True)[:3])

# The dearest rows, by a sort of the whole table.
top = sorted(rows, key=lambda r: (-r["price"], r["id"]))[:3]
print([(r["id"], r["price"]) for r in top])

# A word count over a text of WORDS words.
VOCAB = ["the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog",
         "and", "runs", "away", "from", "a", "big", "red", "barn", "while",
         "it", "rains", "in", "spring"]
parts = []
for i in range(WORDS):
    w = VOCAB[(i * 7 + i // 50) % len(VOCAB)]
    if i % 9 == 0:
        w = w.capitalize()
    if i % 13 == 12:
        w += ","
    parts.append(w)
text = " ".join(parts)
words = [w.strip(".,;:!?").lower() for w in text.split()]
counts = Counter(words)
print(len(words), len(counts))
for w, n in counts.most_common(5):
    print(f"{w}: {n}")
lengths = defaultdict(int)
for w in words:
    lengths[len(w)] += 1
print(sorted(lengths.items()))
