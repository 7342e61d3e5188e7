import heapq
from collections import defaultdict

EDGES = """A B 4
A C 2
B C 5
B D 10
C E 3
E D 4
D F 11
E F 20"""

graph = defaultdict(list)
for line in EDGES.splitlines():
    a, b, w = line.split()
    graph[a].append((b, int(w)))
    graph[b].append((a, int(w)))


def dijkstra(start):
    dist = {start: 0}
    prev = {}
    heap = [(0, start)]
    visited = set()
    while heap:
        d, node = heapq.heappop(heap)
        if node in visited:
            continue
        visited.add(node)
        for nxt, w in graph[node]:
            nd = d + w
            if nd < dist.get(nxt, float("inf")):
                dist[nxt] = nd
                prev[nxt] = node
                heapq.heappush(heap, (nd, nxt))
    return dist, prev


dist, prev = dijkstra("A")
for node in sorted(dist):
    path, cur = [node], node
    while cur in prev:
        cur = prev[cur]
        path.append(cur)
    print(f"{node}: {dist[node]:3d} via {'->'.join(reversed(path))}")
print("degrees:", {n: len(graph[n]) for n in sorted(graph)})
print("unknown node has no edges:", graph["Z"], "Z" in graph)
