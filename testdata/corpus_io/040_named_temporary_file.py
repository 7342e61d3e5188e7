import tempfile

with tempfile.NamedTemporaryFile("w+", suffix=".txt") as tmp:
    tmp.write("alpha\nbeta\n")
    tmp.flush()
    tmp.seek(0)
    print(tmp.read().split(), tmp.name.endswith(".txt"))
