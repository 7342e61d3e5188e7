for x in [0.5, 1.5, 2.5, 3.5, -0.5, -1.5, 2.4999, 2.5001]:
    print(x, "->", round(x))

print(round(2.675, 2), round(1.005, 2), round(0.125, 2), round(0.375, 2))
print(round(3.14159, 3), round(-3.14159, 1), round(1234.5678, -2), round(1250, -2), round(1350, -2))
print(round(7), round(7, 2), type(round(7.5)).__name__, type(round(7.5, 1)).__name__)
print(round(1e-10, 5), round(123.456, 0))

scores = [88.5, 92.5, 79.45, 100.0, 67.55]
print([round(s) for s in scores])
print([round(s, 1) for s in scores])
avg = sum(scores) / len(scores)
print(avg, round(avg, 2))
