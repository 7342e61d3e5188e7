"""Class attributes as shared counters and defaults, and how instance assignment shadows them."""


class Ticket:
    next_id = 1
    default_priority = "normal"
    tags = []

    def __init__(self, title, priority=None):
        self.id = Ticket.next_id
        Ticket.next_id += 1
        self.title = title
        if priority:
            self.default_priority = priority

    def tag(self, t):
        self.tags.append(t)


a = Ticket("login broken")
b = Ticket("typo", priority="low")
c = Ticket("crash")
print([t.id for t in (a, b, c)], Ticket.next_id)
print(a.default_priority, b.default_priority, "default_priority" in vars(b), "default_priority" in vars(a))
Ticket.default_priority = "high"
print(a.default_priority, b.default_priority)
a.tag("auth")
print(c.tags, Ticket.tags is a.tags)
c.tags = ["own"]
c.tag("x")
print(a.tags, c.tags, sorted(vars(c)))
del b.default_priority
print(b.default_priority)
