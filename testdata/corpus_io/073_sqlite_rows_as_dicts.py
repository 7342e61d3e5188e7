import json
import sqlite3

conn = sqlite3.connect("shop.db")
conn.row_factory = sqlite3.Row
rows = [dict(r) for r in conn.execute("SELECT id, name, email FROM customers ORDER BY id")]
print(json.dumps(rows, indent=1))
