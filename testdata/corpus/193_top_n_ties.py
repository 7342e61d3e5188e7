scores = {"ann": 92, "bob": 87, "cyd": 92, "dee": 78, "eli": 87, "fay": 99, "gus": 60}


def rank(scores):
    """Dense ranking: equal scores share a rank."""
    ordered = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    ranks, last, current = [], None, 0
    for name, score in ordered:
        if score != last:
            current += 1
            last = score
        ranks.append((current, name, score))
    return ranks


for r, name, score in rank(scores):
    print(f"#{r} {name} {score}")

top3 = sorted(scores, key=scores.get, reverse=True)[:3]
print(top3)
threshold = sorted(scores.values(), reverse=True)[2]
print([n for n, s in scores.items() if s >= threshold])
print(sorted(scores.items(), key=lambda kv: kv[1])[:2])
