import traceback


def parse_row(row):
    fields = row.split(",")
    return {"id": int(fields[0]), "price": float(fields[2])}


def parse_all(rows):
    out = []
    for r in rows:
        out.append(parse_row(r))
    return out


rows = ["1,apple,0.5", "2,pear,x", "3,plum"]
for i in range(len(rows)):
    try:
        print(parse_all(rows[: i + 1]))
    except (ValueError, IndexError) as e:
        entries = traceback.extract_tb(e.__traceback__)
        names = [entry.name for entry in entries]
        last = entries[-1]
        print(f"{type(e).__name__} in {last.name} at line {last.lineno}; path {' -> '.join(names)}")
        print("  ", traceback.format_exception_only(type(e), e)[-1].strip())
        tb = e.__traceback__
        depth = 0
        while tb is not None:
            depth += 1
            tb = tb.tb_next
        print("   depth", depth, len(entries))
