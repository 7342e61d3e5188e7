# Merge two CSV sources by key and write the result with DictWriter.
import csv
import io

people = "id,name,team\n1,Ann,red\n2,Bo,blue\n3,Cy,red\n"
scores = "id,score\n1,88\n3,92\n4,75\n"

by_id = {row["id"]: dict(row) for row in csv.DictReader(io.StringIO(people))}
for row in csv.DictReader(io.StringIO(scores)):
    by_id.setdefault(row["id"], {"id": row["id"]})["score"] = row["score"]

out = io.StringIO()
writer = csv.DictWriter(out, fieldnames=["id", "name", "team", "score"], restval="n/a")
writer.writeheader()
for key in sorted(by_id):
    writer.writerow(by_id[key])
print(out.getvalue(), end="")

try:
    writer.writerow({"id": "9", "nickname": "zed"})
except ValueError as exc:
    print("refused:", exc)

lenient = csv.DictWriter(io.StringIO(), fieldnames=["id"], extrasaction="ignore")
print(lenient.writerow({"id": "9", "nickname": "zed"}))
