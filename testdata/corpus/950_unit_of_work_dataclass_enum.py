"""A task tracker: tasks as dataclasses with a status Enum, filtered and summarised."""
from dataclasses import dataclass, field
from enum import Enum
from collections import Counter


class Status(str, Enum):
    TODO = "todo"
    DOING = "doing"
    DONE = "done"


@dataclass
class Task:
    title: str
    status: Status = Status.TODO
    points: int = 1
    labels: set = field(default_factory=set)

    def advance(self):
        order = list(Status)
        i = order.index(self.status)
        if i + 1 < len(order):
            self.status = order[i + 1]
        return self


tasks = [Task("login", points=3, labels={"auth"}), Task("signup", Status.DOING, 5), Task("docs"),
         Task("deploy", Status.DONE, 2)]
tasks[0].advance().advance()
tasks[2].advance()
for t in tasks:
    print(f"{t.title:<8}{t.status.value:<7}{t.points}")
counts = Counter(t.status for t in tasks)
print({s.value: counts[s] for s in Status})
print(sum(t.points for t in tasks if t.status is Status.DONE), Status.DONE == "done", Status("doing").name)
print(tasks[0].labels, Task("x") == Task("x"), tasks[3].advance().status)
