import itertools

page1 = [{"id": i, "name": f"item{i}"} for i in range(1, 5)]
page2 = [{"id": i, "name": f"item{i}"} for i in range(5, 9)]
page3 = [{"id": 9, "name": "item9"}]

all_items = itertools.chain(page1, page2, page3)
first_three = list(itertools.islice(all_items, 3))
print("first:", [x["id"] for x in first_three])
rest = list(all_items)
print("rest:", [x["id"] for x in rest])

pages = [page1, page2, page3]
flat = list(itertools.chain.from_iterable(pages))
print("count:", len(flat))
print("ids 3..7 step 2:", [x["id"] for x in itertools.islice(flat, 2, 7, 2)])
print("until id 4:", [x["id"] for x in itertools.takewhile(lambda x: x["id"] < 4, flat)])
print("after id 6:", [x["id"] for x in itertools.dropwhile(lambda x: x["id"] <= 6, flat)])

size = 4
for n, start in enumerate(range(0, len(flat), size), 1):
    chunk = itertools.islice(flat, start, start + size)
    print(f"page {n}: {[x['name'] for x in chunk]}")

a, b = itertools.tee(range(5))
print(list(a), list(b))
ids = itertools.count(100, 10)
print([next(ids) for _ in range(3)], next(ids))
print(list(itertools.islice(itertools.count(), 0, 10, 3)), list(itertools.islice("abcdef", 4)))
