ONES = ["", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
SCALES = [(10 ** 9, "billion"), (10 ** 6, "million"), (1000, "thousand")]


def below_thousand(n: int) -> str:
    words = []
    if n >= 100:
        words.append(ONES[n // 100] + " hundred")
        n %= 100
    if n >= 20:
        words.append(TENS[n // 10] + ("-" + ONES[n % 10] if n % 10 else ""))
    elif n:
        words.append(ONES[n])
    return " ".join(words)


def number_to_words(n: int) -> str:
    if n == 0:
        return "zero"
    if n < 0:
        return "minus " + number_to_words(-n)
    parts = []
    for value, name in SCALES:
        if n >= value:
            parts.append(below_thousand(n // value) + " " + name)
            n %= value
    if n:
        parts.append(below_thousand(n))
    return " ".join(parts)


for n in [0, 7, 13, 21, 100, 105, 999, 1001, 12345, 1_000_000, -42, 2_147_483_647]:
    print(f"{n:>13,}: {number_to_words(n)}")
