def to_number(value):
    try:
        return int(value)
    except:
        pass
    try:
        return float(value)
    except:
        return None


samples = ["12", "3.5", "1e3", "abc", None, [1], "  8 ", "-0"]
print([to_number(s) for s in samples])

cache = {}
def get_cached(key):
    try:
        return cache[key]
    except:
        cache[key] = len(str(key)) * 10
        return cache[key]

print(get_cached("abc"), get_cached("abc"), get_cached(12345), cache)

status = "unknown"
try:
    status = {"ok": "green"}["warn"]
except:
    status = "grey"
finally:
    print("status resolved to", status)
