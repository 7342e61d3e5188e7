import uuid

# Deterministic ids for records, so re-imports do not create duplicates.
APP_NS = uuid.uuid5(uuid.NAMESPACE_DNS, "inventory.example.com")
print("namespace:", APP_NS)

records = [
    {"sku": "A-100", "name": "Widget"},
    {"sku": "B-200", "name": "Gadget"},
    {"sku": "A-100", "name": "Widget (dup)"},
    {"sku": "c-300", "name": "Gizmo"},
]
by_id = {}
for r in records:
    rid = uuid.uuid5(APP_NS, r["sku"].upper())
    by_id.setdefault(str(rid), []).append(r["name"])
    print(f"{r['sku']:<6} {rid} v{rid.version}")
print(len(records), "records,", len(by_id), "ids")
for rid, names in sorted(by_id.items()):
    print(rid[:8], names)
print(uuid.uuid5(APP_NS, "A-100") == uuid.uuid5(APP_NS, "A-100"))
