# Seek, overwrite and truncate an in-memory text buffer.
import io

f = io.StringIO("status: PENDING\ncount: 000\n")
print(f.read(8), f.tell())
f.write("DONE   ")
print(repr(f.getvalue()))

f.seek(0)
text = f.read()
pos = text.index("000")
f.seek(pos)
f.write("042")
print(repr(f.getvalue()))

f.seek(0, 2)
f.write("tail\n")
f.truncate(len("status: DONE   \n"))
print(repr(f.getvalue()), f.tell())

g = io.StringIO()
g.writelines(f"{i}," for i in range(5))
print(g.getvalue(), g.seekable(), g.readable(), g.writable())
