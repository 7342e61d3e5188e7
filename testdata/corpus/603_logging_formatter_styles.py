import logging
import io
import sys

buf = io.StringIO()
logger = logging.getLogger("fmt")
logger.setLevel(logging.DEBUG)
h1 = logging.StreamHandler(buf)
h1.setFormatter(logging.Formatter("{levelname}|{name}|{message}", style="{"))
h2 = logging.StreamHandler(sys.stdout)
h2.setFormatter(logging.Formatter("$levelname - $message", style="$"))
logger.addHandler(h1)
logger.addHandler(h2)

users = {"ann": 3, "bob": 0, "cy": 12}
for name, count in sorted(users.items()):
    if count == 0:
        logger.warning("user %s has no orders", name)
    else:
        logger.info("user %s has %d orders", name, count)
logger.debug("dict args: %(a)s and %(b)s", {"a": 1, "b": 2})

lines = buf.getvalue().splitlines()
print(len(lines))
for line in lines:
    level, name, msg = line.split("|")
    print(level.lower(), name, msg.upper())

f = logging.Formatter("%(name)s:%(levelno)d:%(message)s")
rec = logging.LogRecord("manual", logging.ERROR, "p.py", 10, "x=%d y=%s", (5, "z"), None)
print(f.format(rec), rec.getMessage(), rec.levelname, rec.args)
print(logging.Formatter().format(rec))
for bad in ["%(message", "{message"]:
    try:
        logging.Formatter(bad, style="{" if bad.startswith("{") else "%")
    except ValueError as e:
        print("ValueError", e)
