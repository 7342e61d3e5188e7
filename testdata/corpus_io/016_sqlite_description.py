import sqlite3

conn = sqlite3.connect("shop.db")
cur = conn.cursor()
cur.execute("SELECT id, name, city FROM customers WHERE city = :city ORDER BY id", {"city": "London"})
print([d[0] for d in cur.description])
print(cur.fetchmany(1))
print(cur.fetchall())
cur.execute("UPDATE products SET stock = stock - 1 WHERE price > ?", (5,))
print(cur.rowcount)
conn.commit()
