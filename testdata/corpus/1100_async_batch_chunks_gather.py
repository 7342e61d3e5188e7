"""Process a long list in chunks: each chunk is gathered before the next one starts."""
import asyncio

in_flight = 0
max_in_flight = 0


async def enrich(record: dict) -> dict:
    global in_flight, max_in_flight
    in_flight += 1
    max_in_flight = max(max_in_flight, in_flight)
    await asyncio.sleep(0.001)
    in_flight -= 1
    if record["id"] % 7 == 0:
        raise ValueError(f"record {record['id']} has no email")
    return {**record, "domain": record["email"].split("@")[1]}


def chunks(items, size):
    for i in range(0, len(items), size):
        yield items[i:i + size]


async def main():
    records = [{"id": i, "email": f"u{i}@{'corp' if i % 3 else 'mail'}.example"} for i in range(1, 16)]
    enriched, failed = [], []
    for n, chunk in enumerate(chunks(records, 4), 1):
        results = await asyncio.gather(*(enrich(r) for r in chunk), return_exceptions=True)
        ok = [r for r in results if isinstance(r, dict)]
        failed += [str(r) for r in results if isinstance(r, Exception)]
        enriched += ok
        print(f"chunk {n}: {len(ok)}/{len(chunk)} ok")
    print("max in flight:", max_in_flight)
    print("failed:", failed)
    domains = {}
    for r in enriched:
        domains[r["domain"]] = domains.get(r["domain"], 0) + 1
    print(dict(sorted(domains.items())))


asyncio.run(main())
