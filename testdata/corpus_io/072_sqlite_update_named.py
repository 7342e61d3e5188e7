import sqlite3

conn = sqlite3.connect("shop.db")
cur = conn.execute("UPDATE customers SET city = :city WHERE city = :old", {"city": "Londres", "old": "London"})
print(cur.rowcount)
conn.commit()
print(conn.execute("SELECT name FROM customers WHERE city = ? ORDER BY name", ("Londres",)).fetchall())
