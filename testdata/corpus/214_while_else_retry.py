def find_slot(calendar, duration, start=9, end=17):
    hour = start
    while hour + duration <= end:
        if all(h not in calendar for h in range(hour, hour + duration)):
            print(f"free from {hour}:00 to {hour + duration}:00")
            break
        hour += 1
    else:
        print(f"no {duration}h slot between {start}:00 and {end}:00")


busy = {9, 10, 13, 15}
find_slot(busy, 1)
find_slot(busy, 2)
find_slot(busy, 3)
find_slot(set(range(9, 17)), 1)

tokens = ["GET", "/index.html", "HTTP/1.1"]
i = 0
while i < len(tokens):
    if tokens[i].startswith("/"):
        print("path token at", i, tokens[i])
        break
    i += 1
else:
    print("no path")
