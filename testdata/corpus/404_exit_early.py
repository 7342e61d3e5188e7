"""A script with a main() that validates its input and stops early with exit()."""

RECORDS = [
    {"id": 1, "amount": "12.50"},
    {"id": 2, "amount": "7"},
    {"id": 3, "amount": "n/a"},
]


def parse_amounts(records):
    amounts = []
    for record in records:
        try:
            amounts.append(float(record["amount"]))
        except ValueError:
            print(f"skipping record {record['id']}: bad amount {record['amount']!r}")
    return amounts


def main() -> int:
    amounts = parse_amounts(RECORDS)
    if not amounts:
        print("nothing to do")
        return 1
    print(f"total {sum(amounts):.2f} over {len(amounts)} records")
    try:
        exit(2)
    except SystemExit as stop:
        print("exit caught with code", stop.code)
    return 0


if __name__ == "__main__":
    status = main()
    print("status", status)
    exit(status)
    print("never printed")
