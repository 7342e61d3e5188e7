import sqlite3

conn = sqlite3.connect("shop.db")
try:
    conn.execute("INSERT INTO customers (id, name) VALUES (1, 'Dup')")
except sqlite3.IntegrityError as e:
    print("integrity:", e)
try:
    conn.execute("SELECT nope FROM customers")
except sqlite3.OperationalError as e:
    print("operational:", e)
conn.rollback()
print(conn.execute("SELECT COUNT(*) FROM customers").fetchone())
