def progress_bar(done: int, total: int, width: int = 20) -> str:
    """Render a text progress bar like [#####-----] 50.0%."""
    if total <= 0:
        raise ValueError("total must be positive")
    frac = min(max(done / total, 0.0), 1.0)
    filled = round(frac * width)
    return f"[{'#' * filled}{'-' * (width - filled)}] {frac:6.1%}"


for done in [0, 1, 7, 10, 13, 20, 25]:
    print(f"{done:>3}/20 {progress_bar(done, 20)}")

print(progress_bar(1, 3, width=9))
print(progress_bar(2, 3, width=9))

spinner = "|/-\\"
print(" ".join(spinner[i % len(spinner)] for i in range(10)))

try:
    progress_bar(1, 0)
except ValueError as e:
    print("error:", e)
