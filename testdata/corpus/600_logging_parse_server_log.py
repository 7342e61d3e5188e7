import logging
import sys

logging.basicConfig(stream=sys.stdout, level=logging.INFO,
                    format="%(levelname)s:%(name)s:%(message)s")
log = logging.getLogger("logparse")

LINES = """2024-03-01 12:00:01 GET /api/users 200 12ms
2024-03-01 12:00:02 POST /api/login 401 30ms
2024-03-01 12:00:03 GET /api/users 200 9ms
garbage line here
2024-03-01 12:00:05 GET /api/orders 500 120ms
2024-03-01 12:00:06 DELETE /api/users/7 204 15ms
2024-03-01 12:00:07 GET /api/orders 503 300ms""".splitlines()


def parse(line):
    parts = line.split()
    if len(parts) != 6:
        raise ValueError(f"expected 6 fields, got {len(parts)}")
    date, time, method, path, status, took = parts
    return {"method": method, "path": path, "status": int(status), "ms": int(took.rstrip("ms"))}


records = []
for n, line in enumerate(LINES, 1):
    try:
        rec = parse(line)
    except ValueError as e:
        log.warning("line %d skipped: %s", n, e)
        continue
    if rec["status"] >= 500:
        log.error("server error on %s %s (%d)", rec["method"], rec["path"], rec["status"])
    elif rec["status"] >= 400:
        log.info("client error %d on %s", rec["status"], rec["path"])
    log.debug("parsed %r", rec)
    records.append(rec)

total = sum(r["ms"] for r in records)
log.info("parsed %d of %d lines, %d ms in all", len(records), len(LINES), total)
slow = sorted(records, key=lambda r: -r["ms"])[:2]
for r in slow:
    print(f"{r['path']:<14} {r['ms']:>5} ms")
print("root level:", logging.getLevelName(logging.getLogger().level))
print("effective:", log.getEffectiveLevel(), log.isEnabledFor(logging.DEBUG))
