import sqlite3

conn = sqlite3.connect("shop.db")
tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
for t in tables:
    print(t, conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0])
