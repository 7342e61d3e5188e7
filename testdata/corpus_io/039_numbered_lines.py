with open("notes/todo.md") as f:
    for n, line in enumerate(f, start=1):
        print(f"{n:>3}| {line}", end="")
