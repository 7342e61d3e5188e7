events = []


def find_first_negative(values):
    try:
        for i, v in enumerate(values):
            if v < 0:
                return i
        return -1
    finally:
        events.append(f"scanned {values}")


def override():
    try:
        return "from try"
    finally:
        events.append("finally in override")


print(find_first_negative([3, 1, -4, 1]))
print(find_first_negative([2, 7]))
print(override())
for e in events:
    print(e)


def nested_finally():
    order = []
    try:
        try:
            order.append("inner try")
            return order
        finally:
            order.append("inner finally")
    finally:
        order.append("outer finally")


print(nested_finally())
