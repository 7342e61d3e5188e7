"""Using instances of a class that defines __eq__ but not __hash__ as dict keys fails."""


class Coord:
    def __init__(self, lat, lon):
        self.lat, self.lon = lat, lon

    def __eq__(self, other):
        return (self.lat, self.lon) == (other.lat, other.lon)

    def __repr__(self):
        return f"Coord({self.lat}, {self.lon})"


points = [Coord(1, 2), Coord(1, 2), Coord(3, 4)]
print(points[0] == points[1], points[0] != points[2], points.count(Coord(1, 2)))
print(Coord(3, 4) in points, points.index(Coord(3, 4)))
print(Coord.__hash__)
seen = {}
for p in points:
    seen[p] = seen.get(p, 0) + 1
print(seen)
