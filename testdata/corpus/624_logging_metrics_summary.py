import logging
import io

stream = io.StringIO()
handler = logging.StreamHandler(stream)
handler.setFormatter(logging.Formatter("%(levelname)s|%(name)s|%(message)s"))
root = logging.getLogger()
root.addHandler(handler)
root.setLevel(logging.DEBUG)

services = {"auth": [120, 95, 3000], "search": [40, 55], "billing": [900, 1500, 2500, 200]}
for svc, latencies in services.items():
    log = logging.getLogger(f"svc.{svc}")
    for ms in latencies:
        if ms > 2000:
            log.error("%d ms is over the SLO", ms)
        elif ms > 1000:
            log.warning("slow request: %d ms", ms)
        else:
            log.debug("ok %d ms", ms)

by_level = {}
for line in stream.getvalue().splitlines():
    level, name, msg = line.split("|", 2)
    by_level.setdefault(level, []).append(name)
for level in sorted(by_level):
    print(level, len(by_level[level]), sorted(set(by_level[level])))
print(logging.getLogger("svc").getEffectiveLevel(), logging.getLogger("svc.auth").parent.name)
