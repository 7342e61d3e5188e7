from contextlib import closing


def numbers_from(source):
    print(f"opening {source}")
    try:
        n = 0
        while True:
            n += 1
            yield n * n
    finally:
        print(f"released {source} after {n} values")


with closing(numbers_from("sensor-1")) as squares:
    for value in squares:
        if value > 20:
            print("stop at", value)
            break
print("after with")

with closing(numbers_from("sensor-2")) as squares:
    print([next(squares) for _ in range(3)])

try:
    with closing(numbers_from("sensor-3")) as squares:
        next(squares)
        raise LookupError("calibration missing")
except LookupError as e:
    print("LookupError:", e)


def lines():
    try:
        yield "a"
        yield "b"
    except GeneratorExit:
        print("GeneratorExit received")
        raise


with closing(lines()) as it:
    print(next(it))
print("done")
