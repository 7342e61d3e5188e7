import sqlite3

conn = sqlite3.connect("shop.db")
conn.row_factory = sqlite3.Row
for row in conn.execute("SELECT * FROM products ORDER BY price DESC"):
    print(row["name"], row["price"], row["stock"], list(row.keys())[:2])
conn.close()
