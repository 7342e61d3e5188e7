def add(a, b):
    return a + b


def is_even(n):
    return n % 2 == 0


def reverse_string(s):
    return s[::-1]


def test_add():
    assert add(2, 3) == 5
    assert add(-1, 1) == 0


def test_is_even():
    assert is_even(4)
    assert not is_even(7), "7 is odd"


def test_reverse():
    assert reverse_string("héllo") == "olléh"
    assert reverse_string("") == ""


def test_broken():
    assert add(0.1, 0.2) == 0.3, f"float sum was {add(0.1, 0.2)}"


def test_crash():
    return {}["missing"]


tests = [test_add, test_is_even, test_reverse, test_broken, test_crash]
passed = 0
for t in tests:
    try:
        t()
    except AssertionError as e:
        print(f"FAIL {t.__name__}: {e}")
    except Exception as e:
        print(f"ERROR {t.__name__}: {type(e).__name__}: {e}")
    else:
        passed += 1
        print(f"PASS {t.__name__}")
print(f"{passed}/{len(tests)} passed")
