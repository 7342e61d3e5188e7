print("{} + {} = {}".format(2, 3, 2 + 3))
print("{0} {1} {0}".format("ping", "pong"))
print("{name} is {age} years old".format(name="Grace", age=85))
print("{0[0]} and {0[1]}".format(["first", "second"]))
print("{d[key]} / {d[other]}".format(d={"key": "value", "other": 42}))
print("{:>8}|{:<8}|{:^8}|".format("r", "l", "c"))
print("{:.3f} {:,} {:08.2f} {:+d}".format(3.14159, 1000000, -3.5, 7))
print("{:x} {:o} {:b} {:#x}".format(255, 8, 5, 255))
print("{!r} {!s}".format("text", "text"))
print("{{escaped}} {}".format("value"))
print("{:%}".format(0.125), "{:.1%}".format(2 / 3))

template = "Hello, {user}! You have {count} new {noun}."
for user, count in [("ana", 1), ("Bea", 5), ("Çelik", 0)]:
    noun = "message" if count == 1 else "messages"
    print(template.format(user=user.capitalize(), count=count, noun=noun))

fields = {"city": "Kraków", "temp": -3.456}
print("{city}: {temp:.1f}°C".format(**fields))
print("{0:{1}}|".format("w", 5), "{:{}.{}f}".format(2.71828, 8, 3))
