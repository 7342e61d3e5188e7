data = {"Mon": 12, "Tue": 7, "Wed": 0, "Thu": 15, "Fri": 9, "Sat": 3, "Sun": 11}

peak = max(data.values())
scale = 30 / peak
for day, n in data.items():
    bar = "█" * round(n * scale)
    print(f"{day} {bar:<30} {n:>3}")

print()
height = 5
for level in range(height, 0, -1):
    threshold = peak * level / height
    print("".join(" # " if n >= threshold else "   " for n in data.values()))
print("".join(f"{d[:2]:^3}" for d in data))
print(f"total={sum(data.values())} mean={sum(data.values()) / len(data):.2f}")
