"""Walk a simulated async paged API with an async generator and async comprehensions."""
import asyncio

REPOS = [{"name": f"repo{i:02d}", "stars": (i * 37) % 50, "archived": i % 4 == 0} for i in range(1, 14)]
requests = []


async def api_list_repos(page: int, per_page: int) -> dict:
    requests.append(page)
    await asyncio.sleep(0.001)
    start = (page - 1) * per_page
    chunk = REPOS[start:start + per_page]
    return {"items": chunk, "has_more": start + per_page < len(REPOS)}


async def all_repos(per_page=5):
    page = 1
    while True:
        resp = await api_list_repos(page, per_page)
        for repo in resp["items"]:
            yield repo
        if not resp["has_more"]:
            break
        page += 1


async def main():
    active = [r["name"] async for r in all_repos() if not r["archived"]]
    print(len(active), active[:4])
    print("requests:", requests)
    requests.clear()
    popular = None
    async for repo in all_repos(per_page=4):
        if repo["stars"] > 45:
            popular = repo
            break
    print("first popular:", popular, "requests:", requests)
    stars = sum([r["stars"] async for r in all_repos(per_page=20)])
    print("total stars:", stars)


asyncio.run(main())
