class ValidationError(Exception):
    pass


def check_positive(value, field):
    if value <= 0:
        raise ValidationError(f"{field} must be positive, got {value}")
    return value


def build_item(raw):
    return {
        "qty": check_positive(raw["qty"], "qty"),
        "price": check_positive(raw["price"], "price"),
    }


def build_order(raws):
    return [build_item(r) for r in raws]


def submit(raws):
    try:
        order = build_order(raws)
    except ValidationError as e:
        return f"rejected: {e}"
    except KeyError as e:
        return f"rejected: missing field {e}"
    return f"accepted {len(order)} items"


print(submit([{"qty": 1, "price": 2.5}, {"qty": 3, "price": 1.0}]))
print(submit([{"qty": 1, "price": 2.5}, {"qty": 0, "price": 1.0}]))
print(submit([{"qty": 2, "price": -1}]))
print(submit([{"qty": 2}]))
