"""Breadth-first and depth-first traversals of a dependency graph as generators."""
from collections import deque

GRAPH = {
    "app": ["auth", "db", "ui"],
    "auth": ["crypto", "db"],
    "db": ["driver"],
    "ui": ["widgets", "auth"],
    "widgets": [],
    "crypto": [],
    "driver": ["crypto"],
}


def bfs(graph, start):
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        node, depth = queue.popleft()
        yield node, depth
        for nxt in graph[node]:
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt, depth + 1))


def dfs(graph, node, seen=None):
    seen = set() if seen is None else seen
    if node in seen:
        return
    seen.add(node)
    yield node
    for nxt in graph[node]:
        yield from dfs(graph, nxt, seen)


def postorder(graph, node, seen):
    seen.add(node)
    for nxt in graph[node]:
        if nxt not in seen:
            yield from postorder(graph, nxt, seen)
    yield node


print(list(bfs(GRAPH, "app")))
print(list(dfs(GRAPH, "app")))
print("build order:", list(postorder(GRAPH, "app", set())))
print("within 1 hop:", [n for n, d in bfs(GRAPH, "app") if 0 < d <= 1])
first_leaf = next(n for n in dfs(GRAPH, "ui") if not GRAPH[n])
print("first leaf from ui:", first_leaf)
