CALL_COUNT = 0
CACHE = {}
DEBUG = False


def expensive(n: int) -> int:
    global CALL_COUNT
    CALL_COUNT += 1
    return sum(i * i for i in range(n))


def cached(n: int) -> int:
    if n not in CACHE:
        CACHE[n] = expensive(n)
    return CACHE[n]


def enable_debug():
    global DEBUG
    DEBUG = True


print([cached(n) for n in [10, 20, 10, 30, 20]])
print("calls:", CALL_COUNT, "cache size:", len(CACHE))
print("debug before:", DEBUG)
enable_debug()
print("debug after:", DEBUG)
