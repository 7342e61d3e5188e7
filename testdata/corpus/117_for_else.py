def find_prime_factor(n):
    for d in range(2, int(n ** 0.5) + 1):
        if n % d == 0:
            print(f"{n} has factor {d}")
            break
    else:
        print(f"{n} is prime")


for n in [2, 9, 13, 91, 97, 100]:
    find_prime_factor(n)

for item in []:
    print("never")
else:
    print("empty loop still runs else")

matrix = [[1, 2], [3, 4], [5, 6]]
target = 4
for i, row in enumerate(matrix):
    for j, v in enumerate(row):
        if v == target:
            print("found at", (i, j))
            break
    else:
        continue
    break
else:
    print("not found")
