raw_contacts = [
    {"Name": "  alice SMITH ", "Email": "Alice@Example.COM ", "phone": "555-0100"},
    {"name": "Bob jones", "email": None, "Phone": "(555) 0101"},
    {"NAME": "carla díaz", "EMAIL": "carla@ejemplo.es", "PHONE": ""},
    {"name": "", "email": "ghost@example.com"},
]


def normalize(record: dict) -> dict:
    r = {k.strip().lower(): v for k, v in record.items()}
    name = " ".join(w.capitalize() for w in (r.get("name") or "").split())
    email = (r.get("email") or "").strip().lower() or None
    digits = "".join(ch for ch in (r.get("phone") or "") if ch.isdigit())
    phone = f"{digits[:3]}-{digits[3:]}" if len(digits) == 7 else None
    return {"name": name or "(unknown)", "email": email, "phone": phone}


for rec in raw_contacts:
    print(normalize(rec))

complete = [c for c in map(normalize, raw_contacts) if all(c.values())]
print(len(complete), "complete:", [c["name"] for c in complete])
