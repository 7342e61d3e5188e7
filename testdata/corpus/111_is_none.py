from typing import Optional


def find_user(users, name) -> Optional[dict]:
    for u in users:
        if u["name"] == name:
            return u
    return None


users = [{"name": "ann", "admin": True}, {"name": "bob", "admin": False}]
for name in ["ann", "bob", "cyd"]:
    user = find_user(users, name)
    if user is None:
        print(name, "not found")
    elif user["admin"] is True:
        print(name, "is an admin")
    else:
        print(name, "is a regular user")

value = None
print(value is None, value is not None, None is None)
flag = False
print(flag is False, flag is not True, (not flag) is True)
a = [1, 2]
b = a
c = [1, 2]
print(a is b, a is c, a == c, a is not c)
