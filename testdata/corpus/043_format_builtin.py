print(format(3.14159, ".2f"))
print(format(1234567, ","))
print(format(255, "x"), format(255, "08b"), format(255, "#o"))
print(format("text", ">10") + "|")
print(format("text", "*^10"))
print(format(0.25, ".0%"))
print(format(42))
print(format(1e-9, ".3g"), format(123456.0, ".3g"))
print(repr(format(True)), format(True, "d"), format(False, ">5"))

def fmt_bytes(n: int) -> str:
    for unit in ["B", "KB", "MB", "GB", "TB"]:
        if abs(n) < 1024 or unit == "TB":
            return format(n, ".1f") + " " + unit if unit != "B" else f"{n} B"
        n /= 1024
    return str(n)

for size in [0, 512, 2048, 1536000, 5 * 1024 ** 3, 7 * 1024 ** 5]:
    print(size, "->", fmt_bytes(size))
