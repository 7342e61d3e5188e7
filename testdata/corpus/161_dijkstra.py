import math
from typing import Dict, List, Tuple

Graph = Dict[str, List[Tuple[str, int]]]


def dijkstra(graph: Graph, source: str) -> Tuple[Dict[str, float], Dict[str, str]]:
    dist = {node: math.inf for node in graph}
    prev: Dict[str, str] = {}
    dist[source] = 0
    unvisited = list(graph)
    while unvisited:
        node = min(unvisited, key=lambda n: (dist[n], n))
        unvisited.remove(node)
        if dist[node] == math.inf:
            break
        for nbr, weight in graph[node]:
            alt = dist[node] + weight
            if alt < dist[nbr]:
                dist[nbr] = alt
                prev[nbr] = node
    return dist, prev


def path_to(prev: Dict[str, str], target: str) -> List[str]:
    path = [target]
    while path[-1] in prev:
        path.append(prev[path[-1]])
    return path[::-1]


g: Graph = {
    "A": [("B", 4), ("C", 2)],
    "B": [("C", 5), ("D", 10)],
    "C": [("E", 3)],
    "D": [("F", 11)],
    "E": [("D", 4)],
    "F": [],
    "Z": [],
}
dist, prev = dijkstra(g, "A")
for node in sorted(g):
    d = dist[node]
    print(node, d if d != math.inf else "unreachable", "->".join(path_to(prev, node)) if d != math.inf else "")
