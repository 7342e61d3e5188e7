import itertools
import functools
import operator

pythons = ["3.10", "3.11"]
oses = ["linux", "mac", "win"]
dbs = ["pg", "sqlite"]

matrix = list(itertools.product(pythons, oses, dbs))
excluded = {("3.10", "win", "pg"), ("3.10", "mac", "sqlite")}
jobs = [j for j in matrix if j not in excluded]
print(len(matrix), "combinations,", len(jobs), "jobs after exclusions")
it = iter(jobs)
while batch := list(itertools.islice(it, 4)):
    print(" ", " | ".join("-".join(j) for j in batch))

print("pairs of OSes:", list(itertools.combinations(oses, 2)))
print("orderings:", len(list(itertools.permutations(oses))), list(itertools.permutations("ab")))
print("with replacement:", list(itertools.combinations_with_replacement("xy", 2)))
sizes = [len(pythons), len(oses), len(dbs)]
print("product of sizes:", functools.reduce(operator.mul, sizes), "sum:", functools.reduce(operator.add, sizes, 100))
minutes = dict(zip(oses, [4, 7, 12]))
total = functools.reduce(lambda acc, job: acc + minutes[job[1]], jobs, 0)
print("total CI minutes:", total)
shards = list(itertools.islice(itertools.cycle(["s1", "s2", "s3"]), len(jobs)))
print("shards:", shards)
print(list(itertools.repeat("x", 3)), list(zip(itertools.count(1), "abc")))
