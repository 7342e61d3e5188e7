"""A stock ticker publishing price changes to subscriber objects with different policies."""
from abc import ABC, abstractmethod


class Subscriber(ABC):
    def __init__(self, name):
        self.name = name
        self.inbox = []

    @abstractmethod
    def wants(self, symbol, old, new) -> bool: ...

    def notify(self, symbol, old, new):
        if self.wants(symbol, old, new):
            self.inbox.append(f"{symbol} {old}->{new}")


class Everything(Subscriber):
    def wants(self, symbol, old, new):
        return True


class BigMoves(Subscriber):
    def __init__(self, name, pct):
        super().__init__(name)
        self.pct = pct

    def wants(self, symbol, old, new):
        return old and abs(new - old) / old * 100 >= self.pct


class Ticker:
    def __init__(self):
        self.prices, self.subs = {}, []

    def update(self, symbol, price):
        old = self.prices.get(symbol, 0)
        self.prices[symbol] = price
        for s in self.subs:
            s.notify(symbol, old, price)


t = Ticker()
t.subs += [Everything("log"), BigMoves("alerts", 5)]
for sym, price in [("ACME", 100), ("ACME", 103), ("ACME", 96), ("INIT", 10), ("INIT", 12)]:
    t.update(sym, price)
for s in t.subs:
    print(s.name, s.inbox)
