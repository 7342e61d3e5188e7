class APIError(Exception):
    pass


errors = [
    ValueError("single message"),
    APIError("not found", 404),
    KeyError("user_id"),
    RuntimeError(),
    APIError("rate limited", 429, {"retry_after": 30}),
]

for err in errors:
    print(f"{type(err).__name__:<12} str={str(err)!r:<50} args={err.args}")

try:
    raise APIError("server error", 500)
except APIError as e:
    message, status = e.args
    print(f"status={status} message={message}")
    if status >= 500:
        print("will retry")
