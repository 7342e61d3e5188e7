import uuid

candidates = [
    "123e4567-e89b-12d3-a456-426614174000",
    "123E4567-E89B-12D3-A456-426614174000",
    "{123e4567-e89b-12d3-a456-426614174000}",
    "urn:uuid:123e4567-e89b-12d3-a456-426614174000",
    "123e4567e89b12d3a456426614174000",
    "123e4567-e89b-12d3-a456-42661417400",
    "not-a-uuid",
    "g23e4567-e89b-12d3-a456-426614174000",
    "",
]

def normalize(s):
    try:
        return str(uuid.UUID(s)), None
    except ValueError as e:
        return None, str(e)

valid = set()
for c in candidates:
    norm, err = normalize(c)
    print(f"{c!r:<48} {norm or 'invalid: ' + err}")
    if norm:
        valid.add(norm)
print(len(valid), "distinct valid ids:", sorted(valid))
u = uuid.UUID(candidates[0])
print(u.version, u.variant, u.hex, u.urn)
