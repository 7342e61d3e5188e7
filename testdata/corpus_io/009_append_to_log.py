from datetime import date

with open("logs/app.log", "a") as f:
    f.write("2026-01-08 10:00:00 INFO nightly job finished\n")
with open("logs/app.log") as f:
    lines = f.readlines()
print(len(lines))
print(lines[-1].rstrip())
