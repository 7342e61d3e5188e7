"""A Graph class with BFS shortest paths and topological sort, and a cycle error class."""
from collections import deque, defaultdict


class CycleError(Exception):
    pass


class Graph:
    def __init__(self, edges=()):
        self.adj = defaultdict(list)
        for a, b in edges:
            self.add(a, b)

    def add(self, a, b):
        self.adj[a].append(b)
        self.adj.setdefault(b, [])

    def shortest(self, start, goal):
        prev = {start: None}
        q = deque([start])
        while q:
            node = q.popleft()
            if node == goal:
                path = []
                while node is not None:
                    path.append(node)
                    node = prev[node]
                return path[::-1]
            for nxt in self.adj[node]:
                if nxt not in prev:
                    prev[nxt] = node
                    q.append(nxt)
        return None

    def toposort(self):
        indeg = {n: 0 for n in self.adj}
        for n in self.adj:
            for m in self.adj[n]:
                indeg[m] += 1
        ready = sorted(n for n, d in indeg.items() if d == 0)
        out = []
        while ready:
            n = ready.pop(0)
            out.append(n)
            for m in self.adj[n]:
                indeg[m] -= 1
                if indeg[m] == 0:
                    ready.append(m)
                    ready.sort()
        if len(out) != len(self.adj):
            raise CycleError(f"cycle among {sorted(set(self.adj) - set(out))}")
        return out

    def __len__(self):
        return len(self.adj)


g = Graph([("a", "b"), ("a", "c"), ("b", "d"), ("c", "d"), ("d", "e")])
print(g.shortest("a", "e"), g.shortest("e", "a"), len(g))
print(g.toposort())
g.add("e", "b")
try:
    g.toposort()
except CycleError as e:
    print("CycleError:", e)
