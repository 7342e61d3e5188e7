data = bytes(range(256)) * 4
with open("data/blob.bin", "wb") as f:
    f.write(data)
with open("data/blob.bin", "rb") as f:
    head = f.read(8)
    f.seek(-4, 2)
    tail = f.read()
    size = f.tell()
print(head, tail, size)
