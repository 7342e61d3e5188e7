processed = []
cleanups = 0

for item in ["a", "skip", "b", "stop", "c"]:
    try:
        if item == "skip":
            continue
        if item == "stop":
            break
        processed.append(item.upper())
    finally:
        cleanups += 1

print(processed, cleanups)

attempt = 0
while True:
    attempt += 1
    try:
        if attempt < 3:
            raise ValueError(f"attempt {attempt} failed")
        print("succeeded on attempt", attempt)
        break
    except ValueError as e:
        print("retrying after:", e)
        continue
    finally:
        print("end of attempt", attempt)
print("attempts:", attempt)
