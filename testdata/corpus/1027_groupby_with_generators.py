from itertools import groupby
from operator import itemgetter

EVENTS = [
    ("2024-05-01", "login", "ana"), ("2024-05-01", "purchase", "ana"), ("2024-05-01", "login", "bo"),
    ("2024-05-02", "login", "ana"), ("2024-05-02", "logout", "ana"),
    ("2024-05-03", "purchase", "cy"), ("2024-05-03", "purchase", "bo"), ("2024-05-03", "login", "cy"),
]


def events_for(kind=None):
    for day, action, user in EVENTS:
        if kind is None or action == kind:
            yield {"day": day, "action": action, "user": user}


def daily_counts(events):
    for day, group in groupby(events, key=itemgetter("day")):
        yield day, sum(1 for _ in group)


print(list(daily_counts(events_for())))
print(list(daily_counts(events_for("purchase"))))

by_user = sorted(events_for(), key=itemgetter("user"))
for user, group in groupby(by_user, key=itemgetter("user")):
    actions = [e["action"] for e in group]
    print(f"{user}: {len(actions)} events, {actions}")

runs = [(k, len(list(g))) for k, g in groupby("aaabccddddde")]
print(runs)
streaks = groupby(x > 0 for x in [3, 5, -1, -2, 4, 6, 7, -3])
print([(positive, len(list(g))) for positive, g in streaks])
