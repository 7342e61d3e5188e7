import math

# Great-circle distances between a few cities, as an agent would compute them.
cities = {
    "Paris": (48.8566, 2.3522),
    "London": (51.5074, -0.1278),
    "New York": (40.7128, -74.0060),
    "Tokyo": (35.6762, 139.6503),
    "Sydney": (-33.8688, 151.2093),
}

R = 6371.0088  # mean Earth radius, km


def haversine(a, b):
    lat1, lon1 = map(math.radians, a)
    lat2, lon2 = map(math.radians, b)
    dlat = lat2 - lat1
    dlon = lon2 - lon1
    h = math.sin(dlat / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin(dlon / 2) ** 2
    return 2 * R * math.asin(math.sqrt(h))


def bearing(a, b):
    lat1, lon1 = map(math.radians, a)
    lat2, lon2 = map(math.radians, b)
    x = math.sin(lon2 - lon1) * math.cos(lat2)
    y = math.cos(lat1) * math.sin(lat2) - math.sin(lat1) * math.cos(lat2) * math.cos(lon2 - lon1)
    return (math.degrees(math.atan2(x, y)) + 360) % 360


names = list(cities)
for i, a in enumerate(names):
    for b in names[i + 1:]:
        d = haversine(cities[a], cities[b])
        print(f"{a:>8} -> {b:<8} {d:10.3f} km  bearing {bearing(cities[a], cities[b]):7.3f}")

print(haversine(cities["Paris"], cities["London"]))
print(bearing(cities["Tokyo"], cities["Sydney"]))

# Angles of a triangle from its sides (law of cosines).
a, b, c = 7.0, 8.0, 9.0
A = math.acos((b * b + c * c - a * a) / (2 * b * c))
B = math.acos((a * a + c * c - b * b) / (2 * a * c))
C = math.pi - A - B
print([round(math.degrees(t), 6) for t in (A, B, C)], math.degrees(A))
print(math.tan(math.pi / 4), math.sin(-2.0), math.cos(2.5), math.atan(0.5), math.tan(1.2))
print([math.sinh(x) for x in (0.5, 2.0)], math.cosh(1.5), math.tanh(0.75), math.log10(2.5))
