TEMPLATES = {
    "welcome": "Welcome, {name}! Your plan: {plan:>8}.",
    "invoice": "Invoice #{number:05d}: {amount:,.2f} {currency} due in {days} day{s}",
    "table": "{0:<10}|{1:^7}|{2:>6.1f}",
}

print(TEMPLATES["welcome"].format(name="Łukasz", plan="pro"))
for number, amount, days in [(42, 1234.5, 1), (7, 99.999, 30)]:
    print(TEMPLATES["invoice"].format(number=number, amount=amount, currency="EUR", days=days, s="" if days == 1 else "s"))
for row in [("alpha", "yes", 3.14159), ("beta", "no", 42)]:
    print(TEMPLATES["table"].format(*row))

point = {"x": 3, "y": -4}
print("({x}, {y})".format(**point), "{0[x]}:{0[y]}".format(point))
print("{:*^20}".format(" centered "), "{:=+8.2f}".format(-3.5))
print("{} {} {}".format(*"abc"), "{!r:>8}".format("q"))
print("{:c}{:c}{:c} {:n}".format(79, 107, 33, 1234))
