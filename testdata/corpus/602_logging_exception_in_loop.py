import logging
import sys

logging.basicConfig(stream=sys.stdout, format="%(levelname)s %(message)s")
log = logging.getLogger(__name__)

payloads = ['{"id": 1}', '{"id": 2, "qty": "x"}', '{"id": 3, "qty": 4}', '{"qty": 2}']


def process(text):
    import json
    data = json.loads(text)
    qty = int(data.get("qty", 1))
    return data["id"] * qty


done = 0
for p in payloads:
    try:
        result = process(p)
    except (ValueError, KeyError) as e:
        log.error("failed on %s: %s: %s", p, type(e).__name__, e)
        continue
    done += 1
    log.warning("result %d", result)

try:
    {}["missing"]
except KeyError:
    msg = "lookup failed"
    log.error("%s: %s", msg, "missing")
print("done", done, "of", len(payloads))
print(log.name, log.level, logging.getLogger().level)
