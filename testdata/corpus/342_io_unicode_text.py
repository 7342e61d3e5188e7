# StringIO counts characters, not bytes, in tell/seek/read.
import io

f = io.StringIO()
f.write("naïve café\n")
f.write("日本語テキスト\n")
print(f.tell(), len(f.getvalue()))
f.seek(6)
print(repr(f.read(4)))
f.seek(0)
lines = f.readlines()
print([len(line) for line in lines])
print(repr(f.read(100)))
f.seek(11)
f.write("!")
print(repr(f.getvalue()))
