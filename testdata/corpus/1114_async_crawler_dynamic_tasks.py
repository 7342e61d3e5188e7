"""A crawler whose tasks add new tasks to the same TaskGroup as links are discovered."""
import asyncio

SITE = {
    "/": ["/about", "/blog", "/shop"],
    "/about": ["/", "/team"],
    "/blog": ["/blog/1", "/blog/2", "/about"],
    "/blog/1": ["/blog/2"],
    "/blog/2": ["/blog/404"],
    "/shop": ["/shop/cart"],
    "/shop/cart": [],
    "/team": [],
}


async def get_links(path: str) -> list[str]:
    await asyncio.sleep(0.001)
    if path not in SITE:
        raise LookupError(f"404 {path}")
    return SITE[path]


async def crawl(start: str, max_depth: int):
    seen, broken, depth_of = {start}, [], {start: 0}

    async def visit(tg: asyncio.TaskGroup, path: str):
        try:
            links = await get_links(path)
        except LookupError as e:
            broken.append(str(e))
            return
        for link in links:
            if link not in seen and depth_of[path] < max_depth:
                seen.add(link)
                depth_of[link] = depth_of[path] + 1
                tg.create_task(visit(tg, link))

    async with asyncio.TaskGroup() as tg:
        tg.create_task(visit(tg, start))
    return sorted(seen), broken, depth_of


async def main():
    pages, broken, depth = await crawl("/", max_depth=5)
    print(len(pages), pages)
    print("broken:", broken)
    print({p: d for p, d in sorted(depth.items()) if d >= 2})
    pages, broken, _ = await crawl("/", max_depth=1)
    print(pages, broken)


asyncio.run(main())
