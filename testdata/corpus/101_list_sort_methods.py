tasks = [
    {"title": "deploy", "priority": 2, "done": False},
    {"title": "write docs", "priority": 3, "done": True},
    {"title": "fix login", "priority": 1, "done": False},
    {"title": "refactor", "priority": 3, "done": False},
]

tasks.sort(key=lambda t: t["priority"])
print([t["title"] for t in tasks])
tasks.sort(key=lambda t: (t["done"], -t["priority"]))
print([t["title"] for t in tasks])
tasks.sort(key=lambda t: t["title"], reverse=True)
print([t["title"] for t in tasks])

nums = [5, 3, 8, 1, 9, 2]
result = nums.sort()
print(result, nums)
nums.sort(reverse=True)
print(nums)

words = ["Banana", "apple", "Cherry"]
words.sort()
print(words)
words.sort(key=str.lower)
print(words)
words.sort(key=len, reverse=True)
print(words)
