# Invoice due dates and overdue days, relative to a fixed reporting day.
from datetime import date, timedelta

TODAY = date(2024, 3, 15)
invoices = [
    {"id": "INV-1", "issued": "2024-01-20", "terms": 30, "paid": None},
    {"id": "INV-2", "issued": "2024-02-10", "terms": 45, "paid": "2024-03-01"},
    {"id": "INV-3", "issued": "2024-02-29", "terms": 14, "paid": None},
    {"id": "INV-4", "issued": "2024-03-10", "terms": 30, "paid": None},
]

def status(inv):
    issued = date.fromisoformat(inv["issued"])
    due = issued + timedelta(days=inv["terms"])
    if inv["paid"]:
        paid = date.fromisoformat(inv["paid"])
        late = (paid - due).days
        return due, "paid on time" if late <= 0 else f"paid {late} days late"
    left = (due - TODAY).days
    if left < 0:
        return due, f"OVERDUE by {-left} days"
    return due, f"due in {left} days"

overdue = []
for inv in invoices:
    due, text = status(inv)
    print(f"{inv['id']}: due {due.isoformat()} ({due:%a}) -> {text}")
    if text.startswith("OVERDUE"):
        overdue.append(inv["id"])
print("overdue:", ", ".join(overdue) or "none")
print("end of quarter:", date(TODAY.year, 3, 31), "days left:", (date(TODAY.year, 3, 31) - TODAY).days)
