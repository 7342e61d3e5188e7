"""FizzBuzz with a rule list, a lambda-free decorator registry and a join of results."""
RULES = []


def divisible_by(n, word):
    def deco(fn):
        RULES.append((n, word, fn))
        return fn
    return deco


@divisible_by(3, "Fizz")
@divisible_by(5, "Buzz")
def standard(x):
    return True


@divisible_by(7, "Bazz")
def only_odd(x):
    return x % 2 == 1


def say(x):
    words = [w for n, w, ok in sorted(RULES) if x % n == 0 and ok(x)]
    return "".join(words) or str(x)


print(" ".join(say(i) for i in range(1, 22)))
print(say(105), say(210), [(n, w) for n, w, _ in RULES])
