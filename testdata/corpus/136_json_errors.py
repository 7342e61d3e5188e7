import json

candidates = [
    '{"ok": true}',
    "{'single': 'quotes'}",
    '{"trailing": 1,}',
    "",
    "[1, 2",
    "null",
]

for text in candidates:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        print(f"{text!r:24} invalid JSON ({type(e).__name__})")
    except ValueError:
        print(f"{text!r:24} invalid (ValueError)")
    else:
        print(f"{text!r:24} -> {value!r}")

try:
    json.loads("{bad}")
except ValueError as e:
    print("ValueError catches it too:", isinstance(e, ValueError))
