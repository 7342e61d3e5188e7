def parse_header(lines):
    """Yield header fields; return how many lines the header used."""
    used = 0
    for line in lines:
        used += 1
        if not line:
            return used
        key, _, value = line.partition(":")
        yield key.strip().lower(), value.strip()
    return used


message = ["From: ana@example.com", "To: bo@example.com", "Subject: hi", "", "body text"]
gen = parse_header(message)
headers = {}
while True:
    try:
        key, value = next(gen)
    except StopIteration as stop:
        consumed = stop.value
        break
    headers[key] = value
print(headers)
print("header lines:", consumed, "body:", message[consumed:])

gen = parse_header(["X-Only: 1"])
print(list(gen))
try:
    next(gen)
except StopIteration as stop:
    print("exhausted again, value:", stop.value, stop.args)


def countdown(n):
    while n > 0:
        yield n
        n -= 1
    return "liftoff"


g = countdown(2)
print(next(g), next(g))
try:
    next(g)
except StopIteration as e:
    print(repr(e), e.value)
print(next(g, "default after the end"))
