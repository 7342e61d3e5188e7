import copy
from string import Template

BASE = {
    "subject": Template("Your order $order_id has shipped"),
    "body": Template("Hi $name,\n\nYour $item ships via ${carrier}. Total: $$${total}.\n"),
}
customers = [
    {"name": "Ana", "order_id": "A-17", "item": "lamp", "carrier": "UPS", "total": "49.00"},
    {"name": "Bo", "order_id": "B-03", "item": "desk", "total": "310.50"},
]

drafts = []
for c in customers:
    msg = copy.copy(BASE)
    try:
        msg["body"] = BASE["body"].substitute(c)
    except KeyError as e:
        print("missing field", e, "for", c["name"])
        msg["body"] = BASE["body"].safe_substitute(c)
    msg["subject"] = BASE["subject"].substitute(order_id=c["order_id"])
    drafts.append(msg)

for d in drafts:
    print("Subject:", d["subject"])
    print(d["body"])

print(BASE["subject"].template)
t = Template("$who likes $what")
print(t.substitute({"who": "tim"}, what="kung pao"))
print(t.safe_substitute(who="x"))
try:
    Template("cost: $").substitute()
except ValueError as e:
    print("ValueError:", e)
print(Template("${a}b $a").substitute(a=1))
