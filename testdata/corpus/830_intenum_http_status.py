"""HTTP status handling with an IntEnum compared against plain ints."""
from enum import IntEnum


class Status(IntEnum):
    OK = 200
    CREATED = 201
    NOT_FOUND = 404
    SERVER_ERROR = 500

    @property
    def is_error(self):
        return self >= 400

    @classmethod
    def classify(cls, code):
        try:
            return cls(code)
        except ValueError:
            return None


responses = [200, 404, 201, 500, 418, 200]
for code in responses:
    st = Status.classify(code)
    print(code, st.name if st else "UNKNOWN", st.is_error if st else "?")
print(Status.OK == 200, Status.NOT_FOUND + 1, sorted([Status.SERVER_ERROR, Status.OK, 301]))
print(int(Status.CREATED), f"{Status.CREATED}", str(Status.CREATED), repr(Status.CREATED))
counts = {}
for code in responses:
    counts[code] = counts.get(code, 0) + 1
print(counts[Status.OK], Status.OK in counts)
print([s.name for s in Status if s.is_error])
