def make_multiplier(factor):
    def multiply(x):
        return x * factor
    return multiply


double = make_multiplier(2)
triple = make_multiplier(3)
print(double(21), triple("ab"), [double(n) for n in range(4)])


def make_validator(min_len: int, required: str):
    def validate(password: str) -> list:
        problems = []
        if len(password) < min_len:
            problems.append(f"shorter than {min_len}")
        if not any(c in required for c in password):
            problems.append(f"needs one of {required!r}")
        return problems
    return validate


check = make_validator(8, "!@#$")
for pw in ["hunter2", "correct horse", "s3cret!pass"]:
    print(repr(pw), check(pw) or "ok")

def memoize_fib():
    memo = {0: 0, 1: 1}
    def fib(n):
        if n not in memo:
            memo[n] = fib(n - 1) + fib(n - 2)
        return memo[n]
    return fib

fib = memoize_fib()
print(fib(50), fib(90))
