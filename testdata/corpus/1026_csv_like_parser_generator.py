"""Parse CSV text into typed records with a generator and validate rows lazily."""
import csv
import io

RAW = """name,age,city,score
Ana,34,Lisbon,88.5
Ben,,Porto,91
Chloe,29,Faro,not-a-number
Dev,41,Braga,77.25
"""


def records(text):
    reader = csv.DictReader(io.StringIO(text))
    for line_no, row in enumerate(reader, start=2):
        yield line_no, row


def typed(rows, problems):
    for line_no, row in rows:
        try:
            yield {
                "name": row["name"],
                "age": int(row["age"]) if row["age"] else None,
                "city": row["city"],
                "score": float(row["score"]),
            }
        except ValueError as e:
            problems.append((line_no, str(e)))


problems = []
people = list(typed(records(RAW), problems))
for p in people:
    print(p)
print("problems:", problems)
known_ages = [p["age"] for p in people if p["age"] is not None]
print("average known age:", sum(known_ages) / len(known_ages))
print("top scorer:", max(people, key=lambda p: p["score"])["name"])
