def risky(kind: str):
    if kind == "key":
        return {}["missing"]
    if kind == "index":
        return [1, 2, 3][10]
    if kind == "zero":
        return 1 / 0
    if kind == "value":
        return int("nope")
    if kind == "type":
        return "a" + 1
    return "fine"


for kind in ["key", "index", "zero", "value", "type", "ok"]:
    try:
        result = risky(kind)
    except (KeyError, IndexError) as e:
        print(f"{kind}: lookup failed: {type(e).__name__}: {e}")
    except (ZeroDivisionError, ValueError) as e:
        print(f"{kind}: bad number: {type(e).__name__}: {e}")
    except TypeError as e:
        print(f"{kind}: type problem: {e}")
    else:
        print(f"{kind}: result = {result}")
