# Using a StringIO after close() raises ValueError.
import io

buf = io.StringIO("data")
print(buf.read(), buf.closed)
buf.close()
print(buf.closed)
for action in ("read", "write", "getvalue"):
    try:
        if action == "read":
            buf.read()
        elif action == "write":
            buf.write("x")
        else:
            buf.getvalue()
    except ValueError as e:
        print(action, "->", e)
try:
    io.StringIO().write(3.14)
except TypeError as e:
    print("TypeError:", e)
