import sqlite3

conn = sqlite3.connect("shop.db")
conn.execute("CREATE TABLE visits (day TEXT, page TEXT, n INTEGER)")
conn.executemany("INSERT INTO visits VALUES (?, ?, ?)", [
    ("2026-01-01", "/", 10), ("2026-01-01", "/blog", 3), ("2026-01-02", "/", 7), ("2026-01-02", "/blog", 5)])
conn.commit()
for page, total in conn.execute("SELECT page, SUM(n) FROM visits GROUP BY page ORDER BY page"):
    print(page, total)
