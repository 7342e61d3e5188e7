try:
    with open("notes/todo.md", "x") as f:
        f.write("oops")
except FileExistsError as e:
    print("FileExistsError:", e)
with open("notes/new.md", "x") as f:
    f.write("fresh")
print(open("notes/new.md").read())
