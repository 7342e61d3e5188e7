# Agent-style: common attribute mistakes on module values, caught and reported.
import collections
import datetime
import io
import re

td = datetime.timedelta(hours=5, minutes=30)
checks = [
    ("timedelta.hours", lambda: td.hours),
    ("date.hour", lambda: datetime.date(2024, 1, 1).hour),
    ("datetime.total_seconds", lambda: datetime.datetime(2024, 1, 1).total_seconds()),
    ("deque.peek", lambda: collections.deque([1]).peek()),
    ("OrderedDict.first", lambda: collections.OrderedDict(a=1).first),
    ("Counter.top", lambda: collections.Counter("aab").top),
    ("Pattern.groups()", lambda: re.compile(r"(a)").groups()),
    ("Match.text", lambda: re.match("a", "a").text),
    ("StringIO.contents", lambda: io.StringIO("x").contents),
]
for label, fn in checks:
    try:
        print(label, "->", fn())
    except AttributeError as e:
        print(label, "-> AttributeError:", e)
    except TypeError as e:
        print(label, "-> TypeError:", e)

print("hours:", td.total_seconds() / 3600, "seconds attr:", td.seconds)
print(hasattr(td, "hours"), getattr(re.compile("x"), "nosuch", "default"))
for v in (collections.OrderedDict(), collections.deque(), collections.defaultdict(int)):
    try:
        {v: 1}
    except TypeError as e:
        print(e)
