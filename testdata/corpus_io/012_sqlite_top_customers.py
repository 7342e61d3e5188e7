import sqlite3

conn = sqlite3.connect("shop.db")
cur = conn.execute("""
    SELECT c.name, SUM(o.qty * p.price) AS spent
    FROM orders o JOIN customers c ON c.id = o.customer_id JOIN products p ON p.id = o.product_id
    GROUP BY c.id ORDER BY spent DESC
""")
for name, spent in cur.fetchall():
    print(f"{name:<6} {spent:7.2f}")
conn.close()
