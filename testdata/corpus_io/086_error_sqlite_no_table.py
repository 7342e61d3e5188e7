import sqlite3

conn = sqlite3.connect("shop.db")
conn.execute("SELECT * FROM invoices")
