players = [
    {"name": "Zoë", "points": 120, "games": 10},
    {"name": "ahmed", "points": 150, "games": 12},
    {"name": "Bao", "points": 120, "games": 8},
    {"name": "carlos", "points": 90, "games": 9},
    {"name": "Élise", "points": 150, "games": 15},
]

for p in players:
    p["avg"] = round(p["points"] / p["games"], 2)

players.sort(key=lambda p: p["name"].lower())
print([p["name"] for p in players])
players.sort(key=lambda p: p["avg"], reverse=True)
print([(p["name"], p["avg"]) for p in players])
players.sort(key=lambda p: (-p["points"], p["games"]))
for rank, p in enumerate(players, 1):
    print(f"{rank}. {p['name']:<7} {p['points']:>4} pts in {p['games']:>2} games ({p['avg']:.2f}/game)")

names = [p["name"] for p in players]
names.sort(key=str.casefold)
print(names)
