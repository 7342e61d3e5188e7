chunks = []
with open("data/sales.csv", "rb") as f:
    while True:
        b = f.read(64)
        if not b:
            break
        chunks.append(len(b))
print(chunks, sum(chunks))
