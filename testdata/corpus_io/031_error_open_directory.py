with open("data") as f:
    print(f.read())
