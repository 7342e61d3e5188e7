"""Building dataclass records from rows; a row without a required field fails."""
from dataclasses import dataclass, astuple


@dataclass
class Row:
    id: int
    name: str
    score: float = 0.0


rows = [{"id": 1, "name": "a", "score": 2.5}, {"id": 2, "name": "b"}, {"id": 3, "score": 9.0}]
records = []
for r in rows:
    rec = Row(**r)
    records.append(rec)
    print(rec, astuple(rec))
print(len(records))
