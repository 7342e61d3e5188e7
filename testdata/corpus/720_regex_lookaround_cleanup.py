"""Clean up a log excerpt with look-around and backreferences."""
import re

LOG = """2024-01-05 INFO  user=alice amount=1234567 status=ok
2024-01-05 WARN  user=bob bob amount=98765 status=retry retry
2024-01-06 ERROR user=carol amount=5000000 status=failed
# comment line
2024-01-07 INFO  user=dave amount=42 status=ok"""


def thousands(n: str) -> str:
    """Insert commas with a look-ahead, as agents often do."""
    return re.sub(r"\B(?=(\d{3})+(?!\d))", ",", n)


def dedupe(line: str) -> str:
    """Collapse repeated words with a backreference."""
    return re.sub(r"\b(\w+)(\s+\1\b)+", r"\1", line)


rows = []
for line in LOG.splitlines():
    if re.match(r"^(?!#)", line) is None:
        continue
    line = dedupe(line)
    user = re.search(r"(?<=user=)\w+", line).group()
    amount = re.search(r"(?<=amount=)\d+", line).group()
    level = re.search(r"^\S+\s+(?P<level>[A-Z]+)(?=\s)", line).group("level")
    rows.append((user, level, thousands(amount)))

for user, level, amount in rows:
    print(f"{user:<6} {level:<5} {amount:>10}")

snake = [re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", n).lower() for n in ["userId", "HTTPServer", "parseJSON2Dict"]]
print(snake)
print(re.split(r"(?<=[.!?])\s+(?=[A-Z])", "Done. Next step? Yes! ok then."))
print(re.findall(r"(['\"])(.*?)\1", """say "hi" and 'bye' now"""))
strong = [p for p in ["hunter2", "Tr0ub4dor&3", "password", "S3cure!pass"]
          if re.fullmatch(r"(?=.*\d)(?=.*[a-z])(?=.*[A-Z])(?=.*[^\w]).{8,}", p)]
print(strong)
m = re.search(r"(?P<word>\w+) (?P=word)", "this is is a test")
print(m.span(), m.group("word"), m.lastgroup)
try:
    re.compile(r"(?<=\d+)x")
except re.error as e:
    print("error:", e)
