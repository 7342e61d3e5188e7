import sqlite3

conn = sqlite3.connect("shop.db")
conn.executescript("""
    CREATE TABLE tags (name TEXT PRIMARY KEY);
    INSERT INTO tags VALUES ('new');
    INSERT INTO tags VALUES ('sale');
""")
print(conn.execute("SELECT group_concat(name, '+') FROM tags").fetchone()[0])
