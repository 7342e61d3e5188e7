with open("notes/crlf.txt", "w", newline="") as f:
    f.write("a\r\nb\r\nc")
print(repr(open("notes/crlf.txt").read()))
print(repr(open("notes/crlf.txt", newline="").read()))
print(open("notes/crlf.txt", "rb").read().count(b"\r"))
