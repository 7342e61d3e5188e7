import sqlite3

conn = sqlite3.connect("shop.db")
try:
    with conn:
        conn.execute("UPDATE products SET stock = 0")
        raise ValueError("abort")
except ValueError as e:
    print("rolled back:", e)
print(conn.execute("SELECT SUM(stock) FROM products").fetchone()[0])
