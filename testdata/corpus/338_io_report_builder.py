# Build a text report in a StringIO buffer, then post-process it.
import io

metrics = {"requests": 1520, "errors": 12, "p50_ms": 41.5, "p99_ms": 310.25}

buf = io.StringIO()
buf.write("SERVICE REPORT\n")
buf.write("-" * 20 + "\n")
for name, value in metrics.items():
    print(f"{name:<10}{value:>10}", file=buf)
rate = metrics["errors"] / metrics["requests"]
print(f"error rate: {rate:.2%}", file=buf)

text = buf.getvalue()
print(text, end="")
print("lines:", len(text.splitlines()), "chars:", len(text))
print("position:", buf.tell())
