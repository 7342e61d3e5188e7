text = "the cat sat on the mat with the hat"
print(text.find("the"), text.find("the", 1), text.rfind("the"), text.find("dog"))
print(text.count("the"), text.count("at"), text.count(""))
print(text.index("mat"))
print(text.replace("the", "a"))
print(text.replace("the", "THE", 2))

positions = []
start = 0
while True:
    i = text.find("at", start)
    if i == -1:
        break
    positions.append(i)
    start = i + 1
print(positions)

template = "Dear NAME, your order ORDER ships today. Thanks, NAME!"
print(template.replace("NAME", "Zoë").replace("ORDER", "#1042"))
print("aaaa".replace("aa", "b"), "banana".count("ana"))
