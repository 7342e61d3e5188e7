log = []


def divide(a, b):
    log.append(f"divide({a}, {b})")
    try:
        result = a / b
    except ZeroDivisionError:
        log.append("  caught zero division")
        return None
    else:
        log.append(f"  ok: {result}")
        return result
    finally:
        log.append("  cleanup")


print(divide(10, 4))
print(divide(1, 0))
print(divide(-9, 3))
print("\n".join(log))

try:
    x = int("12")
except ValueError:
    print("not reached")
else:
    print("parsed", x)
finally:
    print("finally always runs")
