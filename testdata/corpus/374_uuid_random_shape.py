import uuid

# uuid4 is random: check the shape of many, print only facts that hold for all.
ids = [uuid.uuid4() for _ in range(200)]
texts = [str(u) for u in ids]
print("all version 4:", all(u.version == 4 for u in ids))
print("all RFC 4122:", all(u.variant == uuid.RFC_4122 for u in ids))
print("lengths:", sorted({len(t) for t in texts}), "dashes:", sorted({t.count("-") for t in texts}))
print("groups:", sorted({tuple(len(g) for g in t.split("-")) for t in texts}))
print("13th hex digit is 4:", all(u.hex[12] == "4" for u in ids))
print("variant digit in 89ab:", all(t[19] in "89ab" for t in texts))
print("unique:", len(set(ids)) == len(ids), len(set(texts)) == len(texts))
print("round trip:", all(uuid.UUID(t) == u for t, u in zip(texts, ids)))
print("int range:", all(0 <= u.int < 2 ** 128 for u in ids))
print("bytes length:", sorted({len(u.bytes) for u in ids}))
short = [u.hex[:8] for u in ids]
print("hex lower:", all(h == h.lower() for h in short))
t = uuid.uuid1()
print("uuid1:", t.version, t.variant == uuid.RFC_4122, len(str(t)))
