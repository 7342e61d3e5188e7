files = ["report.pdf", "photo.JPG", "notes.txt", "archive.tar.gz", "script.py", "README"]
images = (".jpg", ".jpeg", ".png", ".gif")

for f in files:
    kind = "other"
    if f.lower().endswith(images):
        kind = "image"
    elif f.endswith((".txt", ".md")):
        kind = "text"
    elif f.endswith(".py"):
        kind = "code"
    print(f"{f:16} {kind}")

urls = ["https://example.com", "http://test.org", "ftp://files.net", "example.com"]
for u in urls:
    secure = u.startswith("https://")
    web = u.startswith(("http://", "https://"))
    print(u, secure, web)

print("prefix_value".startswith("value", 7), "abcdef".endswith("cd", 0, 4))
