"""The strategy pattern: shipping cost strategies as classes and as plain functions."""
from abc import ABC, abstractmethod
from dataclasses import dataclass


@dataclass
class Parcel:
    weight: float
    distance: int
    express: bool = False


class Strategy(ABC):
    @abstractmethod
    def cost(self, p: Parcel) -> float: ...

    def __call__(self, p):
        return round(self.cost(p), 2)


class Flat(Strategy):
    def __init__(self, price):
        self.price = price

    def cost(self, p):
        return self.price


class ByWeight(Strategy):
    def cost(self, p):
        return 2 + 1.5 * p.weight + (5 if p.express else 0)


def by_distance(p):
    return round(0.01 * p.distance * max(1, p.weight), 2)


strategies = {"flat": Flat(7.5), "weight": ByWeight(), "distance": by_distance}
parcels = [Parcel(1.2, 300), Parcel(5, 50, express=True), Parcel(0.3, 1200)]
for p in parcels:
    costs = {name: s(p) for name, s in strategies.items()}
    best = min(costs, key=costs.get)
    print(p, costs, "->", best)
print([type(s).__name__ for s in strategies.values()])
