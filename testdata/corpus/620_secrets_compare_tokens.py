import secrets

stored = {"reset": secrets.token_hex(16), "verify": secrets.token_hex(16)}
attempts = [("reset", stored["reset"]), ("reset", stored["verify"]), ("verify", stored["verify"].upper()),
            ("verify", stored["verify"])]
for kind, token in attempts:
    print(kind, secrets.compare_digest(token, stored[kind]))
print(secrets.compare_digest(b"abc", b"abc"), secrets.compare_digest("", ""))
for a, b in [("abc", b"abc"), (1, 1), ("ü", "ü")]:
    try:
        secrets.compare_digest(a, b)
    except TypeError as e:
        print("TypeError:", e)
