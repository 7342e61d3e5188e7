import uuid

raw = [
    "6fa459ea-ee8a-3ca4-894e-db77e160355e",
    "886313e1-3b8a-5372-9b90-0c9aee199e5d",
    "6FA459EA-EE8A-3CA4-894E-DB77E160355E",
    "00000000-0000-0000-0000-000000000001",
    "{886313e1-3b8a-5372-9b90-0c9aee199e5d}",
    "ffffffff-ffff-ffff-ffff-ffffffffffff",
]
ids = [uuid.UUID(r) for r in raw]
unique = sorted(set(ids))
print(len(ids), "ids,", len(unique), "unique")
for u in unique:
    print(u, u.version, f"{u.int:>40}", u.hex[-6:])
print(min(ids), max(ids))
print(uuid.UUID(int=1) in ids, uuid.UUID(int=2) in ids)
counts = {}
for u in ids:
    counts[u] = counts.get(u, 0) + 1
print(sorted((str(k)[:8], v) for k, v in counts.items()))
print([str(u) for u in unique if u.version is not None])
print(repr(unique[0]), repr(unique[0].bytes[-2:]))
