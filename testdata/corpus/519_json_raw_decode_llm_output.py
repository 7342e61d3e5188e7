import json

# Pull JSON objects out of a model's chatty reply.
reply = """Sure! Here is the plan:
{"step": 1, "action": "search", "query": "weather in Paris"}
Then I will summarise: {"step": 2, "action": "summarise", "max_words": 50}.
Extra text with a brace { that is not JSON.
[1, 2, 3] and finally "done"
"""
decoder = json.JSONDecoder()
found = []
i = 0
while i < len(reply):
    if reply[i] in "{[":
        try:
            obj, end = decoder.raw_decode(reply, i)
            found.append(obj)
            i = end
            continue
        except json.JSONDecodeError as e:
            print(f"skip at {i}: {e.msg} (pos {e.pos})")
    i += 1
for obj in found:
    print(type(obj).__name__, obj)

enc = json.JSONEncoder(sort_keys=True, separators=(",", ":"))
print(enc.encode(found[0]), "".join(enc.iterencode(found[-1])))
steps = sorted((o for o in found if isinstance(o, dict)), key=lambda o: o["step"])
print(json.dumps(steps, indent=2))
print(json.JSONDecoder(parse_int=float).decode("[1, 2]"))
