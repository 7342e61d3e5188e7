import sys
import traceback

jobs = {"div": lambda: 10 / 0, "key": lambda: {"a": 1}["b"], "ok": lambda: 42,
        "idx": lambda: [1, 2][5], "conv": lambda: int("4.5"), "attr": lambda: None.upper()}
failures = {}
results = {}
for name in sorted(jobs):
    try:
        results[name] = jobs[name]()
    except Exception:
        etype, value, tb = sys.exc_info()
        failures[name] = (etype.__name__, str(value), tb.tb_lineno > 0)
print(results)
for name, (etype, msg, has_line) in failures.items():
    print(f"{name:<5} {etype:<18} {msg} {has_line}")
print(sys.exc_info())
print(traceback.format_exc())
summary = "".join(traceback.format_exception_only(ValueError, ValueError("bad value")))
print(repr(summary))
print(repr("".join(traceback.format_exception_only(KeyError("k")))))
