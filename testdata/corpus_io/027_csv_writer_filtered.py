import csv

with open("data/sales.csv", newline="") as src, open("reports/widgets.csv", "w", newline="") as dst:
    reader = csv.DictReader(src)
    writer = csv.DictWriter(dst, fieldnames=["date", "region", "units"])
    writer.writeheader()
    for row in reader:
        if row["product"] == "widget":
            writer.writerow({k: row[k] for k in ["date", "region", "units"]})
print(open("reports/widgets.csv").read(), end="")
