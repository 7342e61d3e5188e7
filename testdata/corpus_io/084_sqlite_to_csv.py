import csv
import sqlite3

conn = sqlite3.connect("shop.db")
cur = conn.execute("SELECT id, name, price FROM products ORDER BY id")
with open("reports/products.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow([d[0] for d in cur.description])
    w.writerows(cur)
print(open("reports/products.csv").read(), end="")
