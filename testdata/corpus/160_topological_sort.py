from typing import Dict, List


def topo_sort(deps: Dict[str, List[str]]) -> List[str]:
    """Order tasks so every task comes after its dependencies (DFS)."""
    order: List[str] = []
    state: Dict[str, str] = {}

    def visit(node: str, path: List[str]) -> None:
        if state.get(node) == "done":
            return
        if state.get(node) == "visiting":
            raise ValueError("cycle: " + " -> ".join(path + [node]))
        state[node] = "visiting"
        for dep in deps.get(node, []):
            visit(dep, path + [node])
        state[node] = "done"
        order.append(node)

    for node in sorted(deps):
        visit(node, [])
    return order


build = {
    "app": ["lib", "config"],
    "lib": ["utils"],
    "tests": ["app", "fixtures"],
    "config": [],
    "utils": [],
    "fixtures": ["utils"],
}
print(topo_sort(build))
try:
    topo_sort({"a": ["b"], "b": ["c"], "c": ["a"]})
except ValueError as e:
    print("error:", e)
