import sqlite3

conn = sqlite3.connect("shop.db")
cur = conn.cursor()
cur.execute("SELECT day, COUNT(*) FROM orders GROUP BY day ORDER BY day")
while True:
    row = cur.fetchone()
    if row is None:
        break
    print(*row)
