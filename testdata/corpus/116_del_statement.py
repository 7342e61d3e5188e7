data = {"a": 1, "b": 2, "c": 3, "d": 4}
del data["b"]
print(data)
for key in [k for k in data if data[k] % 2 == 1]:
    del data[key]
print(data)

items = list(range(10))
del items[0]
print(items)
del items[-1]
print(items)
del items[::2]
print(items)
del items[1:3]
print(items)

nested = {"user": {"name": "ann", "token": "secret"}}
del nested["user"]["token"]
print(nested)

temp = "scratch"
del temp
try:
    print(temp)
except NameError as e:
    print("gone:", e)

a, b = 1, 2
del a, b
print("deleted both")
