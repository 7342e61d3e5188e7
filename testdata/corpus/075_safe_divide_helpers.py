from typing import Optional, Union

Number = Union[int, float]


def safe_divide(a: Number, b: Number) -> Optional[float]:
    """Divide a by b; None when b is zero or an input is not a number."""
    try:
        return a / b
    except ZeroDivisionError:
        return None
    except TypeError:
        return None


def percent(part: Number, whole: Number) -> str:
    ratio = safe_divide(part, whole)
    return "n/a" if ratio is None else f"{ratio:.1%}"


print(safe_divide(10, 4), safe_divide(1, 0), safe_divide("1", 2), safe_divide(7.5, 2.5))
print(percent(1, 3), percent(5, 0), percent(3, 3), percent(0, 8))
assert safe_divide(9, 3) == 3.0
assert safe_divide(0, 0) is None
print("ok")
