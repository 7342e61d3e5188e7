import re
import statistics

LOG = """\
10.0.0.1 - - [12/Mar/2024:10:00:01] "GET /api/users HTTP/1.1" 200 512 0.031
10.0.0.2 - - [12/Mar/2024:10:00:02] "POST /api/login HTTP/1.1" 401 87 0.120
10.0.0.1 - - [12/Mar/2024:10:00:04] "GET /api/users/7 HTTP/1.1" 200 1024 0.045
10.0.0.3 - - [12/Mar/2024:10:00:05] "GET /static/app.js HTTP/1.1" 304 0 0.002
malformed line here
10.0.0.2 - - [12/Mar/2024:10:00:09] "POST /api/login HTTP/1.1" 200 95 0.210
10.0.0.4 - - [12/Mar/2024:10:00:11] "DELETE /api/users/7 HTTP/1.1" 500 41 1.502
"""

LINE = re.compile(
    r'(?P<ip>\d+(?:\.\d+){3}) .*? "(?P<method>[A-Z]+) (?P<path>\S+) [^"]*" '
    r"(?P<status>\d{3}) (?P<size>\d+) (?P<secs>[\d.]+)"
)

rows, bad = [], 0
for line in LOG.splitlines():
    m = LINE.match(line)
    if m is None:
        bad += 1
        continue
    d = m.groupdict()
    d["status"], d["size"], d["secs"] = int(d["status"]), int(d["size"]), float(d["secs"])
    rows.append(d)

print(f"parsed {len(rows)} lines, {bad} malformed")
times = [r["secs"] for r in rows]
print("mean latency:", round(statistics.mean(times), 4))
print("median latency:", statistics.median(times))
print("stdev:", round(statistics.stdev(times), 4))
print("quartiles:", [round(q, 4) for q in statistics.quantiles(times, n=4)])
errors = [r for r in rows if r["status"] >= 400]
print("error rate:", f"{len(errors) / len(rows):.1%}")
for r in errors:
    print(" ", r["status"], r["method"], r["path"], "from", r["ip"])
print("bytes by ip:", {ip: sum(r["size"] for r in rows if r["ip"] == ip) for ip in sorted({r["ip"] for r in rows})})
