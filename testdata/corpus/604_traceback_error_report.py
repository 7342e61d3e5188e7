import traceback


def load(cfg, key):
    return cfg[key]


def parse_port(cfg):
    return int(load(cfg, "port"))


configs = [{"port": "8080"}, {"port": "eighty"}, {}, {"port": None}]
report = []
for i, cfg in enumerate(configs):
    try:
        report.append((i, parse_port(cfg)))
    except Exception as e:
        text = traceback.format_exc()
        lines = text.strip().splitlines()
        print(f"config {i}: {lines[-1]}")
        print("  frames:", len(traceback.extract_tb(e.__traceback__)),
              [f.name for f in traceback.extract_tb(e.__traceback__)])
        print("  header:", lines[0])
        only = traceback.format_exception_only(type(e), e)
        print("  only:", only)
print(report)
print(repr(traceback.format_exc()))
