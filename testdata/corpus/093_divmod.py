def to_hms(total_seconds: int) -> str:
    hours, rest = divmod(total_seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours:02d}:{minutes:02d}:{seconds:02d}"


for s in [0, 59, 60, 3599, 3600, 86399, 90061]:
    print(s, to_hms(s))

print(divmod(17, 5), divmod(-17, 5), divmod(17, -5), divmod(-17, -5))
print(divmod(7.5, 2), divmod(-7.5, 2))

def make_change(cents: int):
    coins = [25, 10, 5, 1]
    result = {}
    for c in coins:
        result[c], cents = divmod(cents, c)
    return result

print(make_change(93))
print(make_change(41))
