"""gather(return_exceptions=True) collects failures as values next to results."""
import asyncio


class NotFound(Exception):
    pass


USERS = {1: "ana", 2: "ben", 4: "dora"}


async def get_user(uid: int) -> str:
    await asyncio.sleep(0.01 * (uid % 3))
    if uid < 0:
        raise ValueError(f"invalid id {uid}")
    if uid not in USERS:
        raise NotFound(f"user {uid}")
    return USERS[uid]


async def main():
    ids = [1, 2, 3, -1, 4]
    results = await asyncio.gather(*(get_user(i) for i in ids), return_exceptions=True)
    for uid, res in zip(ids, results):
        if isinstance(res, Exception):
            print(f"{uid:>3}: {type(res).__name__}: {res}")
        else:
            print(f"{uid:>3}: {res}")
    ok = [r for r in results if not isinstance(r, BaseException)]
    errors = [r for r in results if isinstance(r, BaseException)]
    print(f"{len(ok)} ok, {len(errors)} failed")
    print(sorted(type(e).__name__ for e in errors))


asyncio.run(main())
