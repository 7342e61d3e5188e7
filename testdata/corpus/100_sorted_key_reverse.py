students = [
    ("Ana", "B", 88),
    ("Ben", "A", 95),
    ("Cai", "B", 88),
    ("Dee", "A", 72),
    ("Eli", "C", 95),
]

print(sorted(students, key=lambda s: s[2]))
print(sorted(students, key=lambda s: s[2], reverse=True))
print(sorted(students, key=lambda s: (-s[2], s[0])))
print(sorted(students, key=lambda s: (s[1], -s[2])))
print([name for name, _, _ in sorted(students, key=lambda s: s[0], reverse=True)])

print(sorted([3, 1, 2], reverse=True), sorted("banana"), sorted({"b": 1, "a": 2}))
print(sorted(["10", "9", "100"]), sorted(["10", "9", "100"], key=int))
print(sorted([-5, 3, -1, 2], key=abs), sorted([(1, "b"), (1, "a"), (0, "z")]))
