import sqlite3

with sqlite3.connect("shop.db") as conn:
    conn.execute("INSERT INTO customers (name, city, email) VALUES (?, ?, ?)", ("Eve", "Rome", "eve@example.com"))
    conn.executemany("INSERT INTO orders (customer_id, product_id, qty, day) VALUES (?, ?, ?, ?)",
                     [(5, 1, 4, "2026-01-08"), (5, 2, 1, "2026-01-08")])
conn = sqlite3.connect("shop.db")
print(conn.execute("SELECT COUNT(*) FROM orders").fetchone()[0])
print(conn.execute("SELECT name, city FROM customers WHERE id = 5").fetchone())
conn.close()
