# A test-run report: results kept as bools in dicts and lists, counted
# with +=, weighted with *, passed to helpers that take bools.


def weight(passed: bool, critical):
    return 3 * passed + critical * 2


def status(ok, strict=False):
    return "PASS" if ok else ("FAIL" if strict else "warn")


results = {"parse": True, "lint": False, "unit": True, "e2e": 2 > 3}
critical = {name: name in ("unit", "e2e") for name in results}

passed = 0
score = 0
for name, ok in results.items():
    passed += ok
    score += weight(ok, critical[name])
    print(f"{name:<6} {status(ok, strict=critical[name] == True):<5} {weight(ok, critical[name] and ok)}")
print(f"passed {passed}/{len(results)} score {score}")

failed = 0
for ok in results.values():
    failed = failed + (not ok)
print("failed", failed, "critical failed", sum(critical[n] and not results[n] for n in results))

history = []
for run in range(4):
    history.append(run % 3 == 0)
streak = 0
for h in history:
    streak = (streak + 1) * h
print("history", history, "streak", streak, "first+last", history[0] + history[-1])
