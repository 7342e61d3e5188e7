"""Names read before their assignment has run: NameError and UnboundLocalError, caught and reported as CPython does."""
settings_loaded = False


def total(values):
    try:
        return running + sum(values)
    except UnboundLocalError as e:
        print("UnboundLocalError:", e)
    running = 0
    return running + sum(values)


print(total([1, 2, 3]))

try:
    print(config)
except NameError as e:
    print("NameError:", e)
    config = {"debug": False}
print(config)


def lookup():
    return cache_table["k"]


try:
    lookup()
except NameError as e:
    print(type(e).__name__, "-", e)

if settings_loaded:
    cache_table = {}
cache_table = {"k": 42}
print(lookup())

try:
    print(late)
except Exception as e:
    print(type(e).__name__, isinstance(e, NameError), e)
late = 1
