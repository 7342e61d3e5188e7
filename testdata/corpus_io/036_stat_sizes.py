import os

for name in ["data/sales.csv", "data/users.json", "notes/todo.md"]:
    st = os.stat(name)
    print(name, st.st_size, os.path.getsize(name) == st.st_size)
