import json

people = [{"name": "José", "city": "São Paulo"}, {"name": "李雷", "city": "北京"}, {"name": "Zoë 🎉", "city": "Zürich"}]

print(json.dumps(people))
print(json.dumps(people, ensure_ascii=False))
print(json.dumps("tab\tquote\"backslash\\newline\n"))

text = json.dumps(people, ensure_ascii=False)
back = json.loads(text)
print(back == people, back[1]["name"], len(back[2]["name"]))

escaped = json.dumps(people[0])
print(escaped, len(escaped))
print(json.loads(escaped)["name"][::-1])
