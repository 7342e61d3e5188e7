import heapq
import re

server_a = """2024-05-01T10:00:01 INFO start
2024-05-01T10:00:07 WARN disk 85%
2024-05-01T10:01:30 INFO ok"""
server_b = """2024-05-01T10:00:03 INFO start
2024-05-01T10:00:07 ERROR db timeout
2024-05-01T10:02:00 INFO ok"""
server_c = """2024-05-01T09:59:59 DEBUG boot"""

ENTRY = re.compile(r"^(\S+) (\w+) (.*)$")


def parse(text, source):
    out = []
    for line in text.splitlines():
        m = ENTRY.match(line)
        if m:
            out.append((m.group(1), source, m.group(2), m.group(3)))
    return out


streams = [parse(server_a, "a"), parse(server_b, "b"), parse(server_c, "c")]
merged = heapq.merge(*streams)
first = next(merged)
print("first:", first)
for ts, src, level, msg in merged:
    print(ts[11:], src, f"{level:<5}", msg)

newest_first = list(heapq.merge(*[list(reversed(s)) for s in streams], reverse=True))
print("newest:", newest_first[0][0], "oldest:", newest_first[-1][0])
by_level = list(heapq.merge(sorted(streams[0], key=lambda e: e[2]), sorted(streams[1], key=lambda e: e[2]), key=lambda e: e[2]))
print([e[2] for e in by_level])
