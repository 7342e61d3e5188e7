rows = [
    "name\tqty\tprice",
    "apple\t3\t0.50",
    "watermelon\t1\t3.20",
    "fig\t12\t0.10",
]
for row in rows:
    print(row.expandtabs(12))

print("---")
for row in rows:
    print(row.expandtabs())

print(repr("a\tb".expandtabs(4)))
print(repr("abcd\te".expandtabs(4)))
print(repr("\t".expandtabs(2)))
print(len("x\ty\tz".expandtabs(8)))
