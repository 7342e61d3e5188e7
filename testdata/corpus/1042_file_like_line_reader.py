"""Reading a config text: strip comments, join continuation lines, yield key/values."""
CONFIG = """\
# service configuration
name = billing
hosts = alpha.example.com, \\
        beta.example.com, \\
        gamma.example.com

timeout = 30   # seconds
   # indented comment
retries=3
motd = hello \\
  world
"""


def physical_lines(text):
    for number, line in enumerate(text.splitlines(), start=1):
        yield number, line


def logical_lines(lines):
    buffer, start = [], None
    for number, line in lines:
        line = line.split("#", 1)[0].rstrip()
        if start is None:
            start = number
        if line.endswith("\\"):
            buffer.append(line[:-1].strip())
            continue
        buffer.append(line.strip())
        joined = " ".join(part for part in buffer if part)
        if joined:
            yield start, joined
        buffer, start = [], None


def settings(lines):
    for number, line in lines:
        key, sep, value = line.partition("=")
        if not sep:
            raise ValueError(f"line {number}: expected key = value")
        yield key.strip(), value.strip()


for number, line in logical_lines(physical_lines(CONFIG)):
    print(f"{number:2}: {line}")
config = dict(settings(logical_lines(physical_lines(CONFIG))))
print(config)
print([h.strip() for h in config["hosts"].split(",")])
try:
    dict(settings(logical_lines(physical_lines("a = 1\nbroken line\n"))))
except ValueError as e:
    print("ValueError:", e)
