import re
import uuid
from collections import Counter, OrderedDict, deque, defaultdict, namedtuple
from datetime import date, datetime

# A generic describer, as agents write for debugging output.
Point = namedtuple("Point", "x y")
values = [
    Counter("hello"), OrderedDict(a=1), deque([1, 2]), defaultdict(list), Point(1, 2),
    re.compile(r"\d+"), re.match(r"\w+", "word"), uuid.UUID(int=42), date(2024, 1, 2), datetime(2024, 1, 2, 3),
]
for v in values:
    print(f"{type(v).__name__:<12} {str(type(v)):<36} {isinstance(v, type(v))}")

ids = ["12345678-1234-5678-1234-567812345678", uuid.UUID(int=7), "not-a-uuid", 17]
for i in ids:
    if isinstance(i, uuid.UUID):
        print("uuid object", i)
    elif isinstance(i, str):
        try:
            print("parsed", uuid.UUID(i).int % 1000)
        except ValueError as e:
            print("bad:", e)
    else:
        print("skip", type(i).__name__)

patterns = [re.compile("a+"), "b+", re.compile("c")]
print([p.pattern if isinstance(p, re.Pattern) else p for p in patterns])
print(type(Counter()) is Counter, type(deque()) is deque, isinstance(Point(0, 0), Point), type(Point(0, 0)) is Point)
print(type(Counter("abc"))("aab").most_common(1))
