import json


def process(records):
    ok, failed = [], []
    for rec in records:
        try:
            ok.append({"id": rec["id"], "value": float(rec["value"])})
        except (KeyError, ValueError) as e:
            failed.append((rec.get("id"), type(e).__name__))
    return ok, failed


def main() -> int:
    records = json.loads('[{"id": 1, "value": "3.5"}, {"id": 2, "value": "abc"}, {"id": 3}, {"id": 4, "value": 7}]')
    ok, failed = process(records)
    print(json.dumps(ok))
    for rid, err in failed:
        print(f"record {rid}: {err}")
    return 1 if failed else 0


if __name__ == "__main__":
    code = main()
    print("exit code", code)
