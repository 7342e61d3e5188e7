def human_size(num_bytes: float, precision: int = 1) -> str:
    units = ["B", "KiB", "MiB", "GiB", "TiB"]
    size = float(num_bytes)
    for unit in units:
        if size < 1024 or unit == units[-1]:
            if unit == "B":
                return f"{int(size)} {unit}"
            return f"{size:.{precision}f} {unit}"
        size /= 1024


def human_duration(seconds: int) -> str:
    parts = []
    for label, length in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        value, seconds = divmod(seconds, length)
        if value:
            parts.append(f"{value}{label}")
    return " ".join(parts) or "0s"


for n in [0, 1023, 1024, 1536, 10 ** 6, 3 * 1024 ** 3, 2 ** 50]:
    print(f"{n:>20,} = {human_size(n)}")
for s in [0, 59, 61, 3600, 3661, 90061, 1_000_000]:
    print(f"{s:>8} = {human_duration(s)}")
