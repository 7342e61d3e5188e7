"""A time series class with __getitem__ slicing, statistics and a moving average."""
import statistics


class Series:
    def __init__(self, name, values):
        self.name = name
        self.values = list(values)

    def __getitem__(self, key):
        if isinstance(key, slice):
            return Series(f"{self.name}[{key.start}:{key.stop}]", self.values[key])
        return self.values[key]

    def __len__(self):
        return len(self.values)

    def moving_average(self, window):
        return [round(statistics.mean(self.values[i:i + window]), 2)
                for i in range(len(self.values) - window + 1)]

    def __repr__(self):
        return f"Series({self.name!r}, n={len(self)})"


temps = Series("temp", [12.1, 13.4, 15.0, 14.2, 16.8, 18.1, 17.5])
print(temps, temps[0], temps[-1], temps[2:5], temps[2:5].values)
print(temps.moving_average(3))
print(statistics.median(temps.values), round(statistics.pstdev(temps.values), 3))
print(max(temps), min(temps[1:4]), sum(temps) / len(temps))
print(list(temps)[:3], 15.0 in temps)
